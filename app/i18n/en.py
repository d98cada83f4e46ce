"""English strings. Keys must match zh.py exactly."""

STRINGS: dict[str, str] = {
    "app.title": "Attention Lab",
    "about.text": (
        "<b>Attention Lab</b><br>"
        "Drag the vectors and watch every way of scoring a query q against a key k "
        "respond, to see why transformers settled on the dot product.<br>"
        "Companion to the course Training an LLM from Scratch, chapter C3, lesson 2."
    ),
    "menu.file": "&File",
    "menu.edit": "&Edit",
    "menu.view": "&View",
    "menu.language": "Language",
    "menu.world": "&World",
    "menu.help": "&Help",
    "toolbar.main": "Main toolbar",
    "toolbar.world": " World: ",
    "toolbar.scorer": " Scoring: ",
    "action.undo": "Undo",
    "action.redo": "Redo",
    "action.reset_lesson": "Reset to the lesson",
    "action.quit": "Quit",
    "action.reset_layout": "Reset layout",
    "action.shortcuts": "Keyboard shortcuts",
    "action.about": "About",
    "language.zh": "中文",
    "language.en": "English",
    "world.dialogue": "2-D dialogue sample",
    "world.teaching": "4-D teaching world",
    "scorer.dot": "Dot product q·k",
    "scorer.scaled_dot": "Scaled dot q·k/√d",
    "scorer.cosine": "Cosine similarity",
    "scorer.neg_euclidean": "Negative distance",
    "scorer.additive": "Additive (Bahdanau)",
    "scorer.qk_norm": "Dot after QK-Norm",
    "status.pair": "query “{query}” → key “{key}”   {scorer} = {score}",
    # --- playground ---
    # --- editor ---
    # --- heatmap ---
    # --- expansion ---
    # --- match ---
    # --- shapes ---
    # --- timeline ---
    # --- guide ---
    # --- classroom ---
    # --- reliability ---
}
