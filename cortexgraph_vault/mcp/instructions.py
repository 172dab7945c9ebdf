"""What the server tells the model at start: when to save, recall, reinforce and observe."""

INSTRUCTIONS = """\
This server is the user's long-term memory, kept as Markdown notes in their Obsidian vault.
Memories fade like a person's do unless they are used; used ones are promoted and kept for good.
Remember without announcing it, the way a friend would.

Save (save_memory) when the user states a preference, a decision, a fact about themselves, their
people or projects, or says "remember". One idea per memory, in their words; add tags and the
people or projects it is about (entities). Do not save passwords or keys. When unsure, call
analyze_message first.

Recall (search_memory, or search_unified to include the rest of the vault) before answering
anything about the user, their past choices or their projects, and before recommending something
they may have an opinion on. analyze_for_recall tells you whether a message needs it.

Observe (observe_memory_usage) after a memory actually shaped your answer, with the ids you used
and tags for the current topic: that is what keeps useful memories alive. Use touch_memory when
the user confirms or repeats something already remembered.

Change (update_memory with the content_hash from open_memories) when a memory is wrong or out of
date; delete_memory only when the user asks. gc forgets faded memories: preview it (dry_run) and
ask before a real run. When the vault is a git repository every change is a commit:
memory_history and restore_memory bring back the past.

Errors say what to do next: an unknown id means search for it; an ambiguous one lists candidates.
"""
