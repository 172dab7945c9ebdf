"""What the server tells the model at start: the workflow, in as few words as it needs.

The instructions and every tool description are paid for in context on every session, so
each says when to call a tool and what to do next, and nothing the schema already says.
"""

INSTRUCTIONS = """\
The user's long-term memory: Markdown notes in their Obsidian vault. Memories fade unless used;
well-used ones are kept for good. Remember quietly, as a friend would.

1. Before answering about the user, their people, projects or past choices: search_memory
   (search_unified adds their other notes; read_note opens one).
2. After a memory shaped your answer: observe_memory_usage with its ids. That keeps it alive.
3. When they state a preference, decision or fact, or say "remember": search first. Already
   there: touch_memory, or update_memory if it changed. New: save_memory, one idea in their
   words, with tags and entities. Never save passwords or keys.
4. delete_memory only when asked. gc: preview (the default) and ask before a real run.
   memory_history, forgotten_memories and restore_memory bring back the past.

Errors name the argument and the fix: an unknown id means search for it.
"""
