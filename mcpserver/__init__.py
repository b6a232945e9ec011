"""The MCP server: AI agents read the same history as /v1, with the same personal keys."""
