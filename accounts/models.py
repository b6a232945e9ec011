"""Tenants and their API keys."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Account(models.Model):
    """A tenant. Every record of history belongs to exactly one account."""

    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=200, blank=True)
    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="account"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    credits = models.IntegerField(
        null=True,
        blank=True,
        help_text="Fetch credits left; empty means unlimited. Adding credits resumes the "
        "account's credit-paused sources.",
    )

    def __str__(self) -> str:
        return self.slug


class ApiKey(models.Model):
    """A personal API key. Only its SHA-256 digest and a short display prefix are stored."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100, blank=True)
    prefix = models.CharField(max_length=32, help_text="Display prefix, e.g. svc_mcp_AbCd")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 hex of the key")
    scopes = models.JSONField(default=list)
    rate_limit = models.PositiveIntegerField(
        null=True, blank=True, help_text="Requests per 60 s; empty means RATE_LIMIT_DEFAULT"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["account", "-created_at"], name="apikey_account_created")]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name or 'unnamed'})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class UsedAuthorizationCode(models.Model):
    """An OAuth authorization code already exchanged for tokens (mcpserver/oauth.py): only
    its digest, and the family of refresh tokens its exchange began, so that the code
    presented again revokes them (RFC 6749 §4.1.2)."""

    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 hex of the code")
    application = models.ForeignKey(
        settings.OAUTH2_PROVIDER_APPLICATION_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    token_family = models.UUIDField(null=True, blank=True)
    used_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"code {self.digest[:8]}… used {self.used_at:%Y-%m-%d %H:%M}"
