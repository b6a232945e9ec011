"""The owner's rule form: a builder for the common conditions, beside the text form."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import Account
from alerts import rules
from alerts.models import AlertRule
from history.models import Source

WHAT_CHOICES = [
    ("", "— or write the condition below —"),
    ("new", "a new item appears"),
    ("removed", "an item is removed"),
    ("changed", "an item changes"),
    ("price <", "its price goes below…"),
    ("price >", "its price goes above…"),
    ("price drop >=%", "its price drops by at least … %"),
    ("price lowest", "its price is the lowest ever"),
    ("becomes true", "a yes/no field becomes yes (e.g. inStock)"),
    ("becomes false", "a yes/no field becomes no"),
    ("broken", "the page fails 3 times in a row"),
    ("paused", "the source is paused"),
]


def build_condition(what: str, number: Any, field: str, title: str) -> str:
    """The condition text the builder's choices stand for."""
    if what.startswith("price ") and what != "price lowest":
        if number is None:
            raise forms.ValidationError("give the number for this condition")
        amount = f"{number:g}"
        text = f"price drop >= {amount}%" if what.endswith("%") else f"{what} {amount}"
    elif what.startswith("becomes"):
        if not field:
            raise forms.ValidationError("name the yes/no field (e.g. inStock)")
        text = f"{field} {what}"
    else:
        text = what
    if title and what not in ("broken", "paused"):
        escaped = title.replace("\\", "\\\\").replace('"', '\\"')
        text += f' and title ~ "{escaped}"'
    return text


class RuleForm(forms.Form):
    name = forms.CharField(max_length=200, required=False)
    what = forms.ChoiceField(label="Tell me when", choices=WHAT_CHOICES, required=False)
    number = forms.FloatField(label="Number", required=False)
    field = forms.CharField(label="Field", max_length=100, required=False)
    title = forms.CharField(label="Title contains", max_length=200, required=False)
    condition = forms.CharField(
        label="Condition",
        max_length=500,
        required=False,
        help_text='The text form, e.g. price < 30 and title ~ "lamp" (see docs/alerts.md). '
        "Written here, it wins over the choices above.",
    )
    targets = forms.CharField(
        label="Notify",
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="One a line: owner, mailto:ADDRESS, webhook:ENDPOINT_ID or an Apprise URL "
        "(slack://…, discord://…, ntfy://…, json://…).",
    )
    source = forms.ChoiceField(label="Source", required=False)
    digest = forms.ChoiceField(choices=AlertRule.Digest.choices, initial="none")
    on_first = forms.BooleanField(
        label="Also when an item is first seen and the condition already holds", required=False
    )

    def __init__(self, *args: Any, account: Account, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.account = account
        sources = Source.objects.filter(account=account, deleting=False).order_by("name", "pk")
        source_field = self.fields["source"]
        assert isinstance(source_field, forms.ChoiceField)
        source_field.choices = [("", "every source")] + [
            (s.public_id, str(s)[:80]) for s in sources[:500]
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        text = (data.get("condition") or "").strip()
        if not text:
            if not data.get("what"):
                raise forms.ValidationError("choose what to be told about, or write a condition")
            text = build_condition(
                data["what"], data.get("number"), data.get("field") or "", data.get("title") or ""
            )
        data["input"] = rules.RuleInput(
            condition=text,
            targets=[t for t in (data.get("targets") or "").splitlines() if t.strip()],
            source=data.get("source") or None,
            digest=data.get("digest") or "none",
            on_first=bool(data.get("on_first")),
            name=data.get("name") or "",
        )
        return data

    @classmethod
    def for_rule(cls, rule: AlertRule) -> RuleForm:
        return cls(
            account=rule.account,
            initial={
                "name": rule.name,
                "condition": rule.condition,
                "targets": "\n".join(rule.targets),
                "source": rule.source.public_id if rule.source else "",
                "digest": rule.digest,
                "on_first": rule.on_first,
            },
        )
