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
    "playground.title": "2-D playground",
    "playground.axis_x": "dimension 1",
    "playground.axis_y": "dimension 2",
    "playground.col_key": "key k",
    "playground.col_vector": "coordinates",
    "playground.col_dot": "q·k",
    "playground.col_norm": "|k|",
    "playground.col_cos": "cos θ",
    "playground.col_angle": "θ",
    "playground.help": (
        "Drag an arrow tip to move it (it lands on the 0.5 grid; hold Shift to move freely) · "
        "click an arrow to select it · Tab or a number key picks a vector (0 is q) · "
        "arrow keys move it by 0.5 (with Shift by 0.1)"
    ),
    "playground.teaching_hint": (
        "This plane draws the 2-D dialogue sample. The 4-D teaching world is open: "
        "four-number vectors do not fit on a plane, so edit them in the 4-D vector editor."
    ),
    "playground.switch_world": "Switch to the 2-D dialogue sample",
    "playground.canvas_tip": (
        "Background colour: the score the current scoring function would give a key k "
        "placed at that point."
    ),
    "playground.landscape_title": "Background: the score {formula} of a key at each point",
    "playground.q_label": "q: {name}",
    "playground.k_label": "k{number}: {name}",
    "playground.theta": "θ",
    "playground.projection": "|k|cos θ = {value}",
    "playground.query_line": "query q “{name}” = {vector}      |q| = {norm}",
    "playground.cos_undefined": (
        "A zero-length vector has no direction, so the angle θ and cos θ are undefined."
    ),
    "playground.identity": (
        "Selected key “{token}”: q·k = |q| × |k|cos θ   →   {dot} = {norm_q} × {projection}"
    ),
    # --- editor ---
    "editor.title": "4-D vector editor",
    "editor.col_q": "query vector q",
    "editor.col_k": "key vector k",
    "editor.pick_query_tip": "Use “{name}” as the query q",
    "editor.pick_key_tip": "Use “{name}” as the key k",
    "editor.chart_tip": "{role} of “{name}”: drag a bar up or down to change it; click to select",
    "editor.entry_tip": "{role} of “{name}”, dimension {dim}: type a number and press Enter",
    "editor.help": (
        "Drag a bar up or down (it moves in steps of 0.1; hold Shift to move freely), "
        "or type a number in the box below it and press Enter · the q / k buttons pick "
        "the pair to compare"
    ),
    "editor.dialogue_hint": (
        "This editor changes the 4-D teaching world. The 2-D dialogue sample is open: "
        "drag its arrows in the 2-D playground instead."
    ),
    "editor.switch_world": "Switch to the 4-D teaching world",
    "editor.rejected": "“{text}” is not a number from −{limit} to {limit}; nothing changed.",
    # --- heatmap ---
    "heatmap.title": "Score matrix",
    "heatmap.mode_scores": "Scores",
    "heatmap.mode_weights": "Weights (softmax)",
    "heatmap.causal": "Causal mask",
    "heatmap.scale": "Scale mode: random Q, K",
    "heatmap.scale_t_tip": "Sequence length T of the random Q and K",
    "heatmap.query_axis": "query i (row)",
    "heatmap.key_axis": "key j (column)",
    "heatmap.readout": "{formula} = {value}",
    "heatmap.masked_note": "(a future key: hidden before softmax)",
    "heatmap.undefined_note": "(no value: a zero-length vector has no direction)",
    "heatmap.lesson_info": (
        "{rows} queries × {cols} keys = {pairs} scores. Click a cell to pick that pair."
    ),
    "heatmap.computing": "Computing T = {T} in the background…",
    "heatmap.scale_info": (
        "T = {T}, d = {d}: {pairs} pairs (T²). Score matrix in BF16: {bytes}; "
        "additive scoring's naive T×T×d_a tensor: {additive}. "
        "Drawn as {pixels}×{pixels} pixels, each standing for {factor}×{factor} pairs."
    ),
    "heatmap.scale_readout": (
        "Random Q, K (seed {seed}); each pixel shows the value farthest from zero in its block."
    ),
    "heatmap.scale_hover": "queries {queries} × keys {keys}: {value}",
    "heatmap.scale_failed": "Scale mode could not compute this: {reason}",
    # --- expansion ---
    "expansion.title": "Term by term",
    "expansion.heading": "q_{q_name} · k_{k_name}, one dimension at a time",
    "expansion.product_axis": "product qᵢ×kᵢ",
    "expansion.dominant": "Largest term {term} = {value}: {share} of Σ|qᵢkᵢ|",
    "expansion.polar": "|q| × |k| × cos θ = {nq} × {nk} × {cos} = {total}   (θ = {angle}°)",
    "expansion.polar_undefined": "|q| or |k| is 0, so θ has no value; q·k = {total}",
    "expansion.active_scorer": "Current scoring function: {formula} = {value}",
    # --- match ---
    "match.title": "Three kinds of match",
    "match.caption": (
        "Query “{query}” scored against every key · click a header to sort, a row to select"
        " that key"
    ),
    "match.col.key": "Key",
    "match.col.norm": "|k|",
    "match.col.dot": "Dot q·k",
    "match.col.cosine": "Cosine",
    "match.col.neg_euclidean": "−Distance",
    "match.col.additive": "Additive",
    "match.col.rank": "Rank",
    "match.tip.key": "The token whose key is scored",
    "match.tip.norm": (
        "Length of the key, |k|: the dot product counts it, cosine ignores it, distance holds"
        " it against the key"
    ),
    "match.tip.dot": "q·k = |q||k|cos θ: direction and length both count",
    "match.tip.cosine": "q·k / (|q||k|): direction only, between −1 and 1",
    "match.tip.neg_euclidean": "−|q−k|: the nearer to q, the higher; 0 at best",
    "match.tip.additive": (
        "vᵀtanh(W₁q + W₂k): every pair goes through a small network (Bahdanau 2014)"
    ),
    "match.tip.rank": "Rank by {scorer}; 1 = best match",
    "match.tip.undefined_cos": "Cosine is undefined: a vector of length 0 has no direction",
    "match.show_additive": "Show the additive score",
    "match.tip.show_additive": (
        "Add two columns: the Bahdanau additive score vᵀtanh(W₁q + W₂k) and its rank"
    ),
    "match.reasons_title": "Why the ranks differ (dot against cosine and distance)",
    "match.no_disagreement": (
        "For this query, dot product, cosine and distance put the keys in exactly the same"
        " order."
    ),
    "match.reason.cosine_longer": (
        "{a} has the larger dot product ({da} > {db}) only because its |k| is {ratio}× {b}'s;"
        " by direction (cosine {oa} < {ob}) {b} is closer to q."
    ),
    "match.reason.cosine_shorter": (
        "Both point away from q: {a} has the larger dot product ({da} > {db}) only because it"
        " is shorter ({b}'s |k| is {ratio}× its own, so {b} goes further negative); by"
        " direction (cosine {oa} < {ob}) {b} is closer to q."
    ),
    "match.reason.distance_longer": (
        "{a} has the larger dot product ({da} > {db}), but its |k| is {ratio}× {b}'s and"
        " distance counts the extra length against it: {b} is nearer to q (distance {ob} <"
        " {oa})."
    ),
    "match.reason.distance_zero": (
        "{b} is the zero vector, so distance charges it nothing for length: it is nearer to q"
        " (distance {ob} < {oa}) although {a} has the larger dot product ({da} > {db})."
    ),
    # --- shapes ---
    "shapes.title": "Shapes and scale",
    "shapes.head_title": "One head's scores S = Qₕ·Kₕᵀ",
    "shapes.flow_title": "Decoder layer data flow · {model} (pick a stage)",
    "shapes.lesson_scale": "Lesson scale (T = {T}, dₕ = {d})",
    "shapes.anchor_scale": "Anchor model (dₕ = {d})",
    "shapes.tip.slider": (
        "Sequence length T (log scale): arrow keys move one step, Page Up / Page Down double or"
        " halve"
    ),
    "shapes.pairs": "Pairs per head, T²",
    "shapes.score_bytes": "Score matrix T × T",
    "shapes.additive_bytes": "Naive additive tensor T × T × dₐ",
    "shapes.bytes_note": "{bytes} bytes per number; dₐ = {d_a}, the anchor model's head_dim.",
    "shapes.caption": (
        "Side lengths are drawn on a log scale and the edges carry the real sizes; edges with"
        " the same symbol are equally long everywhere."
    ),
    "shapes.detail.in": "In: {tensors}",
    "shapes.detail.out": "Out: {tensors}",
    "shapes.detail.params": "Learned parameters: {count}",
    "shapes.stage.embedding": "Embedding",
    "shapes.stage.norm": "Input norm",
    "shapes.stage.qkv": "Q/K/V projections",
    "shapes.stage.qk_norm": "q_norm / k_norm",
    "shapes.stage.rope": "RoPE",
    "shapes.stage.scores": "Scores S = QKᵀ",
    "shapes.stage.softmax": "Softmax",
    "shapes.stage.weighted_v": "Weighted V",
    "shapes.stage.output_gate": "Output gate",
    "shapes.stage.o_proj": "Output projection o_proj",
    "shapes.note.embedding": "Each token's id looks up one row of a table.",
    "shapes.note.norm": (
        "RMSNorm rescales each token's vector to a common size, then applies a learned gain."
    ),
    "shapes.note.qkv": (
        "The same x times three matrices gives Q, K and V; {heads} query heads share {kv} K/V"
        " heads."
    ),
    "shapes.note.qk_norm": (
        "An RMSNorm over each head's q and k ({head_dim} dims) pins their length to a fixed"
        " scale."
    ),
    "shapes.note.rope": (
        "Rotates {rotary} of each head's {head_dim} q and k dims by position; V is not rotated,"
        " and there are no parameters."
    ),
    "shapes.note.scores": (
        "One matrix product per head, Sₕ = Qₕ·Kₕᵀ / √{head_dim}; every {group} query heads"
        " share one K head."
    ),
    "shapes.note.softmax": (
        "Turns each row into weights that sum to 1 (a causal mask first sets future positions"
        " to −∞)."
    ),
    "shapes.note.weighted_v": (
        "The weights average V to fetch information: {head_dim} dims per head."
    ),
    "shapes.note.output_gate": (
        "A gate between 0 and 1, computed from x, multiplies the attention output element by"
        " element: a head can take nothing this time."
    ),
    "shapes.note.o_proj": "Joins the {heads} heads and projects back to the hidden size.",
    # --- timeline ---
    # --- guide ---
    # --- classroom ---
    "classroom.menu.recent": "Recent files",
    "classroom.menu.export": "Export",
    "classroom.menu.theme": "Theme",
    "classroom.action.open": "Open scenario…",
    "classroom.action.save": "Save scenario",
    "classroom.action.save_as": "Save scenario as…",
    "classroom.action.export_window": "Window as picture (PNG/SVG)…",
    "classroom.action.export_panel": "Current panel as picture (PNG/SVG)…",
    "classroom.action.export_scores": "Score matrix as CSV…",
    "classroom.action.copy_window": "Copy window picture",
    "classroom.action.copy_panel": "Copy current panel picture",
    "classroom.action.presentation": "Presentation mode",
    "classroom.action.zoom_in": "Zoom in",
    "classroom.action.zoom_out": "Zoom out",
    "classroom.action.zoom_reset": "Actual size (100 %)",
    "classroom.action.full_screen": "Full screen",
    "classroom.action.spotlight": "Spotlight on the selected pair",
    "classroom.theme.light": "Light",
    "classroom.theme.projector": "Projector (high contrast)",
    "classroom.theme.dark": "Dark",
    "classroom.dialog.open": "Open a scenario",
    "classroom.dialog.save": "Save the scenario",
    "classroom.dialog.export_image": "Export a picture",
    "classroom.dialog.export_scores": "Export the score matrix",
    "classroom.filter.scenario": "Attention Lab scenarios (*.attnlab.json)",
    "classroom.filter.json": "JSON files (*.json)",
    "classroom.filter.all": "All files (*)",
    "classroom.filter.png": "PNG picture (*.png)",
    "classroom.filter.svg": "SVG vector picture (*.svg)",
    "classroom.filter.csv": "CSV table (*.csv)",
    "classroom.open_failed": "This file cannot be opened, so nothing was changed.",
    "classroom.save_failed": "The scenario could not be saved.",
    "classroom.export_failed": "The export could not be written.",
    "classroom.opened": "Opened {file}",
    "classroom.saved": "Saved {file}",
    "classroom.exported": "Exported {file}",
    "classroom.copied": "Picture copied to the clipboard",
    "classroom.scale": "Scale {percent} %",
    "classroom.restored": "Your last session is back, as it was autosaved.",
    "classroom.restored_backup": (
        "The newest autosave was damaged, so the one saved just before it was restored."
    ),
    "classroom.autosave_unreadable": (
        "The autosave could not be read ({problem}); starting from the lesson."
    ),
    "classroom.autosave_failed": "Autosave could not write its file: {problem}",
    # --- reliability ---
    "reliability.dialog_title": "Attention Lab hit a problem",
    "reliability.unexpected": (
        "Something inside Attention Lab went wrong that it did not expect ({problem}); "
        "nothing you did caused it."
    ),
    "reliability.known": "Attention Lab could not finish what it was doing: {problem}.",
    "reliability.saved": "Your work up to this moment has been saved automatically.",
    "reliability.not_saved": (
        "The automatic save could not be written just now, so keep this window open."
    ),
    "reliability.no_autosave": "No work needed saving.",
    "reliability.log": (
        "You can keep working. The technical details were written to {log} — "
        "send that file along if you report the problem."
    ),
}
