"""Source URLs in their one spelling (`watcher.sources.normal_url`): an upper-case scheme or
host, a default port, an empty `?` or a fragment, stored before URLs were normalised on save,
slipped past the duplicate check and, for a scheme the fetch document refuses (`HTTP://`),
failed every check. A row whose normal URL another live source of its account already has
is left as it is and named on the output, for staff to merge or delete: never two sources of
one URL, and never a failed migration."""

from typing import Any

from django.db import migrations

from history import ids


def normalise(apps: Any, schema_editor: Any) -> None:
    from watcher.sources import normal_url  # pure; imported here, not at module load

    source_model = apps.get_model("history", "Source")
    rows = list(
        source_model.objects.filter(deleting=False)
        .order_by("id")
        .values_list("id", "account_id", "url")
    )
    taken = {(account, url): pk for pk, account, url in rows}
    for pk, account, url in rows:
        normal = normal_url(url)
        if normal == url:
            continue
        other = taken.get((account, normal))
        if other is not None:
            print(  # noqa: T201 - the migration's report to whoever runs it
                f"\n  {ids.encode(ids.SOURCE, pk)} keeps {url}: its normal form {normal} "
                f"is already {ids.encode(ids.SOURCE, other)}; merge or delete one of them.",
                end="",
            )
            continue
        source_model.objects.filter(pk=pk).update(url=normal)
        del taken[(account, url)]
        taken[(account, normal)] = pk


class Migration(migrations.Migration):
    dependencies = [
        ("history", "0006_update_change_unconstrained"),
    ]

    operations = [migrations.RunPython(normalise, migrations.RunPython.noop, elidable=True)]
