"""`createaccount SLUG [--name N] [--owner-email E] [--owner-password P]`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_email, validate_slug
from django.db import transaction

from accounts.models import Account


class Command(BaseCommand):
    help = "Create an account and its owner user; prints the account slug."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="account slug (letters, digits, - and _)")
        parser.add_argument("--name", default="", help="display name")
        parser.add_argument(
            "--owner-email",
            default="",
            help="the owner's e-mail: where password resets and pause e-mails go, and also the "
            "owner's sign-in username (without it, the username is the slug)",
        )
        parser.add_argument(
            "--owner-password",
            default=None,
            help="the owner's password; without it the owner cannot log in until one is set",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slug: str = options["slug"]
        email: str = options["owner_email"]
        try:
            validate_slug(slug)
        except ValidationError:
            raise CommandError(f"invalid slug '{slug}': use letters, digits, - and _") from None
        if len(slug) > 64:
            raise CommandError("invalid slug: at most 64 characters")
        if email:
            try:
                validate_email(email)
            except ValidationError:
                raise CommandError(f"invalid --owner-email '{email}'") from None
        user_model = get_user_model()
        # The owner logs in with the email when there is one, else with the slug.
        username = email or slug
        if Account.objects.filter(slug=slug).exists():
            raise CommandError(f"account '{slug}' already exists")
        if user_model.objects.filter(username=username).exists():
            raise CommandError(f"a user '{username}' already exists")
        with transaction.atomic():
            owner = user_model(username=username, email=email)
            if options["owner_password"]:
                owner.set_password(options["owner_password"])
            else:
                owner.set_unusable_password()
            owner.save()
            Account.objects.create(slug=slug, name=options["name"] or slug, owner=owner)
        self.stdout.write(slug)
