"""The one place every write asks whether what it is about to write holds a credential.

Save, update, relate and both imports pass every field they will write (content, title,
source, context, tags, entities, meta, relation metadata) through here, whichever door they
came from. The vault is committed to git, where a secret stays forever: such a write is
refused unless forced. A forced secret still never names a file or a commit: names are made
from the redacted text.
"""

from __future__ import annotations

from collections.abc import Mapping

from cortexgraph_vault.core.secrets import FieldFinding, find_secrets_in_fields, redact
from cortexgraph_vault.errors import SecretRefused
from cortexgraph_vault.importers.records import ImportPlan, NoteDraft, problem


def describe(found: list[FieldFinding]) -> str:
    fields = list(dict.fromkeys(f.field for f in found))
    kinds = list(dict.fromkeys(f"{f.finding.kind} ({f.finding.excerpt})" for f in found))
    verb = "looks like it holds" if len(fields) == 1 else "look like they hold"
    return f"{', '.join(fields)} {verb} {', '.join(kinds)}"


def refuse_secrets(fields: Mapping[str, object], *, force: bool) -> None:
    """Raise SecretRefused naming each field that holds a credential, unless `force`."""
    if force:
        return
    found = find_secrets_in_fields(fields)
    if found:
        raise SecretRefused(
            f"{describe(found)}; the vault is committed to git, where a secret stays forever. "
            "Save a description without the secret, or pass force to save it anyway",
            params=("force",),
        )


def _draft_fields(draft: NoteDraft) -> dict[str, object]:
    """What an imported note will be made of. The source's own record, when the importer kept
    it, holds every value the note is made from, uncleaned (cleaning a tag lower-cases it, which
    can hide a key's shape); then only the record and the relations need reading."""
    relations = [
        {"type": r.kind, "target": r.fallback_title, "metadata": r.meta} for r in draft.relations
    ]
    if draft.given is not None:
        return {"record": draft.given, "relations": relations}
    fields = {k: v for k, v in draft.fields.items() if k != "id"}
    return {"title": draft.title, "content": draft.body, **fields, "relations": relations}


def screen_import(plan: ImportPlan, *, allow_secrets: bool) -> ImportPlan:
    """Drop (and report) every draft holding a credential anywhere, unless allowed; a draft
    taken anyway is named from its redacted title."""
    kept: list[NoteDraft] = []
    for draft in plan.drafts:
        found = find_secrets_in_fields(_draft_fields(draft))
        if found and not allow_secrets:
            plan.problems.append(
                problem(
                    draft.file,
                    draft.line,
                    f"memory {draft.id}: {describe(found)}; not imported (the vault is committed "
                    "to git); import with --allow-secrets to take it anyway",
                )
            )
            continue
        if found:
            draft.title = redact(draft.title)
        kept.append(draft)
    plan.drafts = kept
    return plan
