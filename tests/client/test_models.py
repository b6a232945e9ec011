"""The client's models are generated from docs/openapi.json and stay in step with it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from tidemark import _models

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "clients" / "python" / "tools" / "generate.py"
MODELS = ROOT / "clients" / "python" / "tidemark" / "_models.py"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tidemark_generate", GENERATOR)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_models_are_what_the_openapi_document_generates() -> None:
    generated = _generator().generate(ROOT / "docs" / "openapi.json")
    assert generated == MODELS.read_text(), (
        "clients/python/tidemark/_models.py differs from docs/openapi.json: run "
        "`.venv/bin/python clients/python/tools/generate.py`"
    )


def test_every_object_schema_of_a_resource_is_a_model() -> None:
    import json

    schemas = json.loads((ROOT / "docs" / "openapi.json").read_text())["components"]["schemas"]
    for name, schema in schemas.items():
        if name in {"Error", "Pagination"} or name.endswith("Page") or "oneOf" in schema:
            continue
        model = getattr(_models, name)
        wire = set(schema.get("properties", {}))
        assert len(model.__dataclass_fields__) == len(wire) + 1, name  # + raw
