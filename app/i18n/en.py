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
    # --- notices ---
    "notice.settings_unusable": "The settings file cannot be used ({problem}); it is left as it is, and this session's settings will not be kept.",
    "notice.unknown_world": "There is no world called “{name}”.",
    "notice.unknown_scorer": "There is no scoring function called “{name}”.",
    "notice.no_pair": "No such pair: query {query}, key {key}.",
    # --- reshaping the 4-D world (issue 17) ---
    "reshape.new_stem": "token",
    "editor.reshape.token": "Token:",
    "editor.reshape.token_tip": "The token that Rename and Remove act on",
    "editor.reshape.name": "new name",
    "editor.reshape.name_tip": (
        "Type a name (up to {limit} characters), then press Rename or Add token"
    ),
    "editor.reshape.rename": "Rename",
    "editor.reshape.rename_tip": "Give the chosen token the name typed in the box",
    "editor.reshape.add": "Add token",
    "editor.reshape.add_tip": (
        "Add a token at the end, named as typed (or “token” and a number); its q and k "
        "start at zero"
    ),
    "editor.reshape.remove": "Remove",
    "editor.reshape.remove_tip": "Remove the chosen token together with its q and k",
    "editor.reshape.dim": "Width d:",
    "editor.reshape.dim_tip": (
        "How many numbers each q and k has ({low} to {high}): new dimensions start at zero, "
        "dropped ones go with their values. Ctrl+Z undoes it."
    ),
    "scorer.unavailable_reshaped": (
        "Not available: its learned weights are for the lesson's d = {d}, and this world "
        "now has d = {now}."
    ),
    "notice.token_name.empty": "A token needs a name; nothing changed.",
    "notice.token_name.spaces": "“{name}” starts or ends with a space; nothing changed.",
    "notice.token_name.too_long": "“{name}” is longer than {limit} characters; nothing changed.",
    "notice.token_name.control": (
        "A token's name cannot hold control characters (a tab, a line break …); "
        "nothing changed."
    ),
    "notice.token_name.taken": "There is already a token “{name}”; nothing changed.",
    "notice.tokens.too_few": "The world needs at least {low} tokens; nothing was removed.",
    "notice.tokens.too_many": "At most {high} tokens fit on screen; nothing was added.",
    "notice.no_token": "There is no token number {index}.",
    "notice.dimension.range": (
        "The width d must be a whole number from {low} to {high}, not {d}; nothing changed."
    ),
    "notice.dimension.scorer": (
        "{scorer} needs weights learned for d = {d}, so the scores are the dot product's now."
    ),
    "notice.heads_odd_d": (
        "{heads} heads need a width d they divide evenly, and this 4-D world has "
        "d = {d}; nothing changed."
    ),
    "notice.dimension.heads": (
        "d = {d} does not split into two equal heads, so attention has one head again."
    ),
    "notice.scorer_reshaped": (
        "{scorer} is not available: its learned weights are for d = {d}, and this world's d "
        "has been changed."
    ),
    "lesson.reshaped_note": (
        "These are the lesson's numbers for its own {count} tokens; your 4-D world has been "
        "reshaped."
    ),
    # --- end of reshaping ---
    "notice.not_a_number": "“{text}” is not a number; nothing changed.",
    "notice.no_vector": "No such vector: {role}[{index}].",
    "notice.wrong_length": "{role}[{index}] needs exactly {count} numbers; nothing changed.",
    "notice.not_finite": "Only finite numbers can be entered (no NaN or infinity); nothing changed.",
    "notice.clamped": "Each entry is limited to ±{limit}; larger values were clamped to the limit.",
    "notice.bad_option": "That display option cannot be set this way; nothing changed ({detail}).",
    "notice.bad_positions": "Positions need one whole number per vector, at most {limit} in size; nothing changed.",
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
    # --- E: the playground's RoPE-off baseline ---
    "playground.rope_note": "RoPE is on: the table shows q·k after the turn; with RoPE off the keys score {scores}. Lengths do not change.",
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
    "editor.title_imported": "Vector editor (imported model, d = {d})",
    "editor.title_width": "{d}-D vector editor",
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
    # --- H: the editor in the imported world ---
    "editor.imported.pair": (
        "Query “{query}” ({qi} of {tq}) · key “{key}” ({ki} of {tk}). "
        "Click a heatmap cell to edit another pair."
    ),
    "editor.imported.largest": (
        "The {count} of {d} dimensions with the largest |qᵢ·kᵢ| in this pair, largest first. "
        "Drag a bar to change it:"
    ),
    "editor.imported.all": "All {count} dimensions. Drag a bar to change it:",
    "editor.imported.q_of": "q of “{name}”",
    "editor.imported.k_of": "k of “{name}”",
    "editor.imported.chart_tip": (
        "{role} of “{name}”: the number under a bar is its dimension; drag the bar up or down"
    ),
    "editor.imported.dim": "Dimension:",
    "editor.imported.dim_tip": "Any of the {d} dimensions: its exact q and k appear beside it",
    "editor.imported.fixed": (
        "The tokens and the width d come from the model: adding, removing and renaming "
        "tokens belong to the 4-D world."
    ),
    "editor.imported.fixed_tip": (
        "A capture is what a trained model computed for its own tokens; another token or "
        "another width would need the model to run again, so only the values can be edited."
    ),
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
        "queries × keys: {rows} × {cols} = {pairs} scores. Click a cell to pick that pair."
    ),
    "heatmap.computing": "Computing T = {T} in the background…",
    "heatmap.scale_info": (
        "T = {T}, d = {d}: {pairs} pairs (T²). Score matrix in BF16: {bytes}; "
        "additive scoring's naive T×T×d_a tensor: {additive}. "
        "Drawn as {pixels}×{pixels} pixels, each standing for {factor}×{factor} pairs."
    ),
    "heatmap.scale_readout": "Random Q, K (seed {seed}); a pixel shows its block's largest |value|",
    "heatmap.scale_pending": "Computing the picture for {scorer}… (the faded one is the last picture)",
    "heatmap.scale_failed": "Scale mode could not compute this: {reason}",
    # --- D: weights follow the scorer, E·Eᵀ against Q·Kᵀ (issue 15) ---
    "heatmap.source_e": "cos of E",
    "heatmap.source_tip": "Pressed: no projection, the embeddings E compared pairwise by cosine. Released: projected with W_Q and W_K into Q and K first, then scored with the chosen scorer",
    "heatmap.source_reshaped": "This world's tokens or width were changed; the embeddings E in the data file no longer fit it.",
    "heatmap.q_length": "Length of q",
    "heatmap.q_length_tip": "Stretch or shrink q before the weights are taken ({low} to {high}): the dot product's weights sharpen or flatten, cosine's do not move.",
    "heatmap.weights_note": "How scores become weights is lesson {lesson}'s subject; this is a first look.",
    "heatmap.shows_e": "Embeddings E compared pairwise by cosine; E from the data file, not projected",
    "heatmap.shows_qk": "Projected Q, K scored by {scorer}",
    "heatmap.self_rank": "{shows}. On the row of {token}, its score for {token} itself ranks {rank} of {count}.",
    # --- expansion ---
    "expansion.title": "Term by term",
    "expansion.heading": "q_{q_name} · k_{k_name}, one dimension at a time",
    "expansion.product_axis": "Each bar is one term of the sum",
    "expansion.dominant": (
        "Largest term: {term} = {value}, {share} of the sum of all terms' absolute values"
    ),
    "expansion.polar": "|q| × |k| × cos θ = {nq} × {nk} × {cos} = {total}   (θ = {angle}°)",
    "expansion.polar_undefined": "|q| or |k| is 0, so θ has no value; q·k = {total}",
    "expansion.active_scorer": "Current scoring function: {formula} = {value}",
    # --- expansion: the additive scorer's own steps (engineer C) ---
    "expansion.additive_heading": "q_{q_name} and k_{k_name} through the additive scorer, "
                                  "step by step",
    "expansion.additive_count": (
        "W₁q and W₂k factor: one matrix product each (Q·W₁ᵀ, K·W₂ᵀ) covers every token. The "
        "add and the tanh do not: every pair needs its own, Tq·Tk·dₐ = {tq} × {tk} × {d_a} = "
        "{here} tanh here, and {lesson} at T = {t}, dₐ = {lesson_d_a}."
    ),
    "expansion.additive_untrained": (
        "W₁, W₂ and v here are made up, not trained: on this row they rank {top} first, which "
        "says nothing about language."
    ),
    "expansion.additive_untrained_plain": (
        "W₁, W₂ and v here are made up, not trained: their ranking says nothing about language."
    ),
    # --- landscapes (engineer C) ---
    "landscapes.title": "Four landscapes",
    "landscapes.intro": (
        "One q (the black arrow), four ways to score every point k of the plane; the dots are "
        "the keys."
    ),
    "landscapes.name.dot": "Dot product",
    "landscapes.name.cosine": "Cosine",
    "landscapes.name.neg_euclidean": "−Distance",
    "landscapes.name.additive": "Additive",
    "landscapes.shape.dot": "Lines across q: linear, so one matmul does all pairs",
    "landscapes.shape.cosine": "Rays: only the direction counts",
    "landscapes.shape.neg_euclidean": "Circles around q: only nearness counts",
    "landscapes.shape.additive": "Bent, levelling off: a small network per pair",
    "landscapes.teaching_hint": (
        "The landscapes are drawn in the plane of the 2-D sample: the 4-D world has no plane "
        "to draw them in."
    ),
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
    # compact table (narrow dock): two-line headers, every score column stays on screen
    "match.col.short.key": "Key",
    "match.col.short.norm": "|k|",
    "match.col.short.dot": "Dot\nq·k",
    "match.col.short.cosine": "Cos",
    "match.col.short.neg_euclidean": "Neg.\ndistance",
    "match.col.short.additive": "Add-\nitive",
    "match.col.short.rank": "#",
    "match.tip.key": "The token whose key is scored",
    "match.tip.norm": (
        "The key's length |k|: for the same direction a longer key gets "
        "a larger dot product; cosine does not see length; distance counts "
        "extra length as being further from q"
    ),
    "match.tip.dot": "q·k = |q||k|cos θ: direction and length both count",
    "match.tip.cosine": "q·k / (|q||k|): direction only, between −1 and 1",
    "match.tip.neg_euclidean": "−|q−k|: the nearer to q, the higher; 0 at best",
    "match.tip.additive": (
        "vᵀtanh(W₁q + W₂k): every pair goes through a small network (Bahdanau "
        "2014); the weights here are untrained examples, so its ranking means little"
    ),
    "match.tip.rank": "Rank by {scorer}; 1 = best match",
    "match.tip.undefined_cos": "Cosine is undefined: a vector of length 0 has no direction",
    "match.show_additive": "Show the additive score",
    "match.tip.show_additive": (
        "Add two columns: the Bahdanau additive score vᵀtanh(W₁q + W₂k) "
        "and its rank. W₁, W₂ and v here are fixed example numbers, never "
        "trained, so this ranking says nothing about how a trained additive scorer would rank."
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
    "shapes.head_title": "One head's scores, and the memory they take",
    "shapes.flow_title": "Decoder layer data flow · {model} (pick a stage)",
    # --- H: the shapes panel in the imported world ---
    "shapes.import_note": (
        "Your import: {tq} queries × {tk} keys, d = {d}, so {pairs} scores per head (the "
        "score matrix shows them). The sizes here are the lesson's example and the anchor "
        "model's."
    ),
    "shapes.lesson_scale": "Lesson: {d} dims per head",
    "shapes.anchor_scale": "Anchor model: {d} dims per head",
    "shapes.tip.slider": (
        "Sequence length T (log scale): arrow keys move one step, Page Up / Page Down double or"
        " halve"
    ),
    "shapes.pairs": "Pairs per head, T²",
    "shapes.score_bytes": "Score matrix T × T",
    "shapes.additive_bytes": "Naive additive tensor T × T × d<sub>a</sub>",
    "shapes.bytes_note": (
        "{bytes} bytes per number; d<sub>a</sub> starts at {d_a}, the anchor model's head_dim."
    ),
    # --- D: the square beside the cube (issue 15) ---
    "shapes.cube_caption": "Additive scoring first lays down dₐ sheets of T × T stacked into a cube: {additive} against {scores}, exactly {ratio} times as much. The square and the cube's front face share one scale; the depth is only suggested.",
    "shapes.tip.d_a": "The additive scorer's hidden size dₐ: how many sheets the cube has (the lesson takes the anchor model's head_dim, {head_dim})",
    "shapes.caption": (
        "Sides on a log scale, real sizes on the edges; one symbol, one length everywhere."
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
        "One matrix product per head, S<sub>h</sub> = Q<sub>h</sub>·K<sub>h</sub>ᵀ /"
        " √{head_dim}; every {group} query heads share one K head."
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
    "timeline.title": "Evolution of attention",
    "timeline.track.training": "Training: letting each token use what the other tokens carry",
    "timeline.track.generation": "Generation: how K and V are kept smaller",
    "timeline.track.training_short": "Training",
    "timeline.track.generation_short": "Generation",
    "timeline.hint": (
        "Click a card, or use ←/→ (↑/↓ switches track) and Enter. "
        "Choosing a stage sets up the other views to show it."
    ),
    "timeline.preview": "Press Enter to set this stage up; the other views still show {name}.",
    "timeline.here": "you are here",
    "timeline.solved": "What it solved:",
    "timeline.stuck": "Where it got stuck:",
    # --- E: live figures beside the lesson's ---
    "timeline.live_vs_lesson": "{live} (the lesson: {lesson})",
    "timeline.lesson_only": "the lesson: {lesson}",
    "timeline.sep": ", ",
    "timeline.on": "on",
    "timeline.off": "off",
    "timeline.rnn.chip": "RNN",
    "timeline.rnn.name": "Starting point: the RNN reads one token after another",
    "timeline.rnn.solved": (
        "Reads a sequence of any length with the same parameters, carrying one "
        "fixed-size state h from each step to the next."
    ),
    "timeline.rnn.stuck": (
        "Step t has to wait for step t − 1: {rnn_serial_steps} tokens mean "
        "{rnn_serial_steps} steps in a row per layer, none of them in parallel, and what "
        "the first token said passes through {rnn_hops_first_to_last} updates before it "
        "reaches the last one. A translator also has to squeeze the whole source sentence "
        "into that single vector: the bottleneck Bahdanau set out to remove."
    ),
    "timeline.additive.chip": "Additive attention",
    "timeline.additive.name": "Bahdanau's additive attention",
    "timeline.additive.solved": (
        "At every output step the decoder looks back over all source positions, gives each "
        "a score from a small network, score = vᵀ·tanh(W₁q + W₂k), and takes a weighted "
        "mix: no more relying on one fixed vector for the whole sentence."
    ),
    "timeline.additive.stuck": (
        "Every pair goes through its own tanh, so the work cannot be handed to one matrix "
        "multiply. Written naively it first builds a T × T × d<sub>a</sub> tensor: at "
        "T = {example_t} and d<sub>a</sub> = {example_d_a} that is "
        "{additive_intermediate_gib} for one head of one layer (BF16), while the dot product "
        "keeps only the T × T scores, {dot_scores_mib}. And it still sits inside a "
        "sequential RNN."
    ),
    "timeline.self_attention.chip": "Self-attention",
    "timeline.self_attention.name": "Self-attention: Q, K, V projections and the dot product",
    "timeline.self_attention.solved": (
        "Compared directly, the embedding of “{query}” is most similar to itself "
        "(cosine {embed_cos_self}) and {embed_rank_last3} come last. Projected into Q and "
        "K, “{query}” ranks itself last and the top three are {qk_rank_top3}; all pairs "
        "come out of one matrix multiply QKᵀ. What is fetched is a separate V: the keys of "
        "the two names have cosine {names_k_cos}, so K alone could not tell who is who."
    ),
    "timeline.self_attention.stuck": (
        "Without scaling: with {anchor_head_dim} dims per head, the dot product of random "
        "unit-variance vectors has a standard deviation of {unscaled_dot_std}, so large gaps "
        "within one row are normal. A gap of {exp_gap} is a factor e<sup>{exp_gap}</sup> ≈ "
        "{exp_20}: "
        "softmax gives almost everything to one key and hardly any gradient flows back to "
        "W<sub>Q</sub> and W<sub>K</sub>."
    ),
    "timeline.scaled_softmax.chip": "Softmax ÷√d",
    "timeline.scaled_softmax.name": "Softmax and ÷√d: the scaled dot product",
    "timeline.scaled_softmax.solved": (
        "Softmax turns scores into positive weights that add up to one, and only the "
        "differences matter. Simply dividing by the sum would fail: the 2-D sample's scores "
        "{dialogue_scores} would give “{car}” a share of {dialogue_car_share_proportional}. "
        "Dividing by √{anchor_head_dim} = {unscaled_dot_std} brings the variance of the dot "
        "product back to one."
    ),
    "timeline.scaled_softmax.stuck": (
        "In training the whole sentence goes in at once. Without a mask, the row of "
        "“{query}” puts {unmasked_weight_on_answer} of its attention on “{answer}”, the very "
        "word it is supposed to predict, and the loss looks better than it is."
    ),
    "timeline.causal.chip": "Causal mask",
    "timeline.causal.name": "The causal mask",
    "timeline.causal.solved": (
        "Before softmax the upper-right triangle is set to −∞, so the future gets exactly "
        "zero weight, and one forward pass trains on every prefix at once. Feeding the "
        "prefixes one by one would take {causal_prefix_forwards} passes over "
        "{causal_prefix_positions} positions."
    ),
    "timeline.causal.stuck": (
        "The weights of one softmax row must add up to one. “{query}” needs both who gave and what "
        "was given, so it gives {masked_weight_apple} to “{object}” and "
        "{masked_weight_xiaoming} to “{giver}” and fetches a blend of two V vectors."
    ),
    "timeline.rope.chip": "RoPE",
    "timeline.rope.name": "Rotary position embedding (RoPE) turns Q and K only",
    "timeline.rope.solved": (
        "Once q and k are each turned by their own position, their dot "
        "product still depends on what they contain; position enters "
        "only through the signed offset j − i, so shifting every position "
        "together leaves every score as it was. V takes no part in scoring "
        "and is left unrotated (turning it would mix absolute positions "
        "into what is fetched). The anchor turns only {anchor_rope_dims} "
        "of each head's {anchor_head_dim} dims."
    ),
    "timeline.rope.stuck": (
        "MLA would like to fold the key up-projection (latent → K) into "
        "the query side, so K never has to be expanded. The rotation "
        "depends on the position and sits between that up-projection "
        "and the score, so it cannot be folded in. MLA therefore keeps "
        "{qk_rope_head_dim} separate RoPE dims, cached on the side."
    ),
    "timeline.multi_head.chip": "Multi-head",
    "timeline.multi_head.name": "Multi-head attention",
    "timeline.multi_head.solved": (
        "The same projections are cut by columns into several heads, each with its own "
        "softmax, at no extra parameters or multiplications: head A gives "
        "{head_a_weight_xiaoming} to “{giver}”, head B gives {head_b_weight_apple} to "
        "“{object}”. The anchor has {anchor_q_heads} heads of {anchor_head_dim} dims."
    ),
    "timeline.multi_head.stuck": (
        "Generation emits one token per step. Re-feeding the whole text every step, a "
        "prompt of {prompt} tokens followed by {generate} new ones needs "
        "{nocache_kv_computations} K/V computations, {nocache_kv_repeated} of them already "
        "done one step earlier; the count grows with the square of the length."
    ),
    "timeline.sink.chip": "Sink and exits",
    "timeline.sink.name": "Side branch: the attention sink and its exits",
    "timeline.sink.solved": (
        "An attention sink is a position, often the first token, that "
        "many heads load with weight while taking almost nothing from "
        "it: somewhere to park the weight softmax makes them hand out. "
        "Standard softmax makes every row hand out all of its weight. "
        "The row of “{object}” has scores only a few tenths apart ({apple_row_scaled}) "
        "and still splits them {apple_row_weights}. A learnable sink "
        "logit in the denominator, or a gate on the output, lets a head "
        "take nothing this time; the anchor's output gate is {gate}."
    ),
    "timeline.sink.stuck": (
        "How well these exits work is known only from experiments: the Gated Attention "
        "paper says the gate eases the sink rather than removing it, and, by the lesson's "
        "account, DeepSeek-V4 reports no separate ablation of its sink logit (the lesson's "
        "statement: there is no public source to check it against)."
    ),
    "timeline.kv_cache.chip": "KV cache",
    "timeline.kv_cache.name": "The KV cache",
    "timeline.kv_cache.solved": (
        "The causal mask guarantees that an old token's K and V never "
        "change, so they are stored and reused: a prompt of {prompt} "
        "tokens followed by {generate} new ones needs {cache_kv_computations} "
        "K/V computations instead of {nocache_kv_computations}, and the output is identical."
    ),
    "timeline.kv_cache.stuck": (
        "The cache grows linearly with the context. If each of the {anchor_q_heads} query "
        "heads kept its own K and V (MHA), the anchor's shape would need "
        "{anchor_full_layers} layers × 2 × {anchor_q_heads} × {anchor_head_dim} × "
        "{dtype_bytes} B = {anchor_mha_kib_per_token} per token, and "
        "{anchor_mha_gib_native} at its native {anchor_context} tokens: for one request, "
        "before any weights."
    ),
    "timeline.mqa.chip": "MQA",
    "timeline.mqa.name": "Multi-query attention (MQA): all heads share one K and V",
    "timeline.mqa.solved": (
        "With one K and V shared by all query heads, the cache shrinks "
        "by the head count: {anchor_mqa_kib_per_token} per token for "
        "the anchor's shape, {anchor_mqa_gib_native} for {anchor_context} tokens."
    ),
    "timeline.mqa.stuck": (
        "Quality can drop and training can become unstable: in Table 1 of the GQA paper "
        "(T5-XXL, averaged over its tasks) MHA scores {gqa_t5xxl_mha_avg} and MQA "
        "{gqa_t5xxl_mqa_avg}."
    ),
    "timeline.gqa.chip": "GQA",
    "timeline.gqa.name": "Grouped-query attention (GQA): K and V shared within groups",
    "timeline.gqa.solved": (
        "The anchor's {anchor_q_heads} query heads form {anchor_kv_groups} groups of "
        "{heads_per_group}, each group sharing one KV head (groups = KV heads): "
        "{anchor_gqa_kib_per_token} per token, {anchor_gqa_gib_native} at {anchor_context} "
        "tokens. On T5-XXL, GQA-8 averages {gqa_t5xxl_gqa8_avg} at {gqa_t5xxl_gqa8_time} "
        "per sample: quality close to MHA ({gqa_t5xxl_mha_avg}, {gqa_t5xxl_mha_time}), "
        "speed close to MQA ({gqa_t5xxl_mqa_time})."
    ),
    "timeline.gqa.stuck": (
        "Fewer KV heads than that is MQA again. {ds67b_name} already uses "
        "{ds67b_kv_heads} KV heads and still needs {dsllm67b_bytes_per_token} per token "
        "(one KV head per query head would be {dsllm67b_mha_bytes_per_token}); a hypothetical "
        "request of {long_context} tokens (its native context is {ds67b_context}) would take "
        "{dsllm67b_gib_1m}."
    ),
    "timeline.mla.chip": "MLA",
    "timeline.mla.name": "Multi-head latent attention (MLA): store one low-rank latent",
    "timeline.mla.solved": (
        "Instead of K and V, each layer stores per token a latent of {kv_lora_rank} numbers "
        "plus {qk_rope_head_dim} RoPE numbers, {mla_numbers_per_layer} in all, and expands "
        "it when needed: {dsv2_name} ({dsv2_layers} layers) {dsv2_bytes_per_token} per "
        "token, {dsv3_name} ({dsv3_layers} layers) {dsv3_bytes_per_token}. That is "
        "{dsv2_vs_67b_reduction_pct} less than {ds67b_name} in BF16; with the KV quantized "
        "to about {dsv2_kv_bits} bits it is {dsv2_quantized_reduction_pct} less, which matches "
        "the {dsv2_kv_reduction_vs_67b} less that the DeepSeek-V2 report gives."
    ),
    "timeline.mla.stuck": (
        "Still linear in the length, and scoring is still T × T: {glm53_name} ({glm53_from}) stores the "
        "same {mla_numbers_per_layer} numbers in {glm53_layers} layers, "
        "{glm53_bytes_per_token} per token, so one request at its native {glm53_context} "
        "tokens needs {glm53_gib_native} for the latents alone."
    ),
    "timeline.linear.chip": "Linear / sparse",
    "timeline.linear.name": "Linear and sparse attention",
    "timeline.linear.solved": (
        "Make the cache stop growing with length: {anchor_linear_layers} "
        "of the anchor's {anchor_layers} layers store no KV at all, just "
        "a state of fixed size ({anchor_linear_state_mib} in FP32 altogether) "
        "however long the context; chapter C11 takes these layers apart. "
        "DeepSeek-V4.1 stacks compression, sparsity and low precision, "
        "and, as the lesson quotes its model card, keeps {dsv41_global_kv_per_token} of global "
        "KV per token ({dsv41_global_kv_per_token_from})."
    ),
    "timeline.linear.stuck": (
        "A state of fixed size cannot remember any number of key–value "
        "pairs, which is why the anchor still keeps {anchor_full_layers} "
        "full-attention layers. Sparse attention reads only some positions "
        "at each step, but deciding which ones costs compute as well."
    ),
    "timeline.live.none": "Nothing to show live before attention: move on with →.",
    "timeline.live.scorer": "The other views now score with: {scorer}.",
    "timeline.weights.caption": "Row of “{query}”: softmax(q·k / √{d})",
    "timeline.weights.caption_causal": "Row of “{query}”: softmax(q·k / √{d}), causal mask",
    "timeline.weights.masked": "masked",
    "timeline.heads.caption": "Row of “{query}” in {count} heads (causal, ÷√{d})",
    "timeline.heads.head": "Head {name} · dims {first}–{last}",
    "timeline.need_teaching": "Switch to the 4-D teaching world to see this row.",
    "timeline.heads.none": "Two heads need the 4-D teaching world.",
    "timeline.rope.caption": "2-D sample, RoPE {state}: q and every key turn by their position",
    "timeline.rope.position_tip": "Position of “{token}”",
    "timeline.rope.shift": "Shift every position by +1",
    "timeline.rope.col_key": "key",
    "timeline.rope.col_before": "before +1",
    "timeline.rope.col_after": "RoPE on",
    "timeline.rope.unchanged": "Every score is unchanged: position enters only through the offsets.",
    "timeline.rope.changed": "Some scores changed: the offsets between positions changed.",
    "timeline.rope.need_dialogue": "RoPE is shown in the 2-D dialogue sample.",
    # --- E: RoPE demo (frequency, RoPE-off baseline, what the rotation keeps) ---
    "timeline.rope.step": "Turn per position:",
    "timeline.rope.degrees": "rad ≈ {degrees}°",
    "timeline.rope.step_tip": "How fast the rotation goes: one step in position turns a vector by this many radians.",
    "timeline.rope.col_offset": "offset j − i",
    "timeline.rope.col_off": "RoPE off",
    "timeline.rope.table": "q·k for each key (|k| is the key's length):",
    "timeline.rope.keeps": (
        "The rotation keeps every length: |q| is still {q_len}, and each |k| is what it was "
        "without RoPE. A score changes only because k is turned (j − i) × {step} rad further "
        "than q: it depends on the content of q and k and on the signed offset, not on where "
        "the pair sits in the text."
    ),
    "timeline.sink.caption": "Row of “{query}”, causal mask",
    "timeline.sink.enable": "Add a sink logit",
    "timeline.sink.value": "sink logit = {value}",
    "timeline.sink.sink": "sink",
    "timeline.sink.share": "The sink takes {share}; the real keys share the rest.",
    "timeline.sink.no_share": "No sink: the row must hand out all of its weight.",
    "timeline.kv.caption": "KV memory (log scale)",
    "timeline.kv.per_token": "per token",
    "timeline.kv.whole": "whole context",
    "timeline.kv.context": "Context: {tokens} tokens",
    "timeline.kv.anchor": "anchor",
    "timeline.kv.state": "state",
    "timeline.kv.model.dsllm67b": "DS 67B",
    "timeline.kv.model.dsv2": "DS-V2",
    "timeline.kv.model.dsv3": "DS-V3",
    "timeline.kv.model.glm53": "GLM-5.3",
    "timeline.kv.tip": "{model} · {scheme}: {per_token} per token, {total} at {tokens} tokens",
    "timeline.kv.tip_state": "{model} · fixed state: {total} at any length",
    # --- E: the KV chart names the stage's bars, and a request past a model's native length ---
    "timeline.kv.hypothetical": " (a hypothetical request: its native context is {native} tokens)",
    "timeline.kv.beyond": "past the model's native context: a hypothetical request",
    "timeline.kv.cell": "{name}: {total}",
    # --- E: where a number comes from ---
    "provenance.config": "numbers from a public config file",
    "provenance.reported": "numbers from a public paper or model card",
    "provenance.lesson": "the lesson's numbers, with no public source to check",
    "timeline.kv.source": "The anchor {anchor} takes its numbers from the public config of {config}; † marks numbers from the lesson alone.",
    # --- guide ---
    "guide.title": "Lesson guide",
    "guide.question": (
        "How is a pair q, k scored for how well it matches, and why the dot product?"
    ),
    "guide.intro": (
        "The previous lesson left every token with a q and a k. What "
        "is missing is a scoring function f(q, k): two vectors in, one "
        "number out, larger when this k is closer to what q is looking "
        "for. “{query}” alone needs one score per token; the whole sentence "
        "needs {sentence_pairs}; one head of the anchor at full context "
        "needs {anchor_pairs_per_head}. So f has to be accurate, and "
        "also quick and light on memory."
    ),
    "guide.step1.title": "① A naive scorer: additive attention",
    "guide.step1.body": (
        "Let a small network judge each pair: score = vᵀ·tanh(W₁q + W₂k). It is as flexible "
        "as it gets, since any notion of match can be learned, and it is where attention "
        "began (Bahdanau, {additive_year})."
    ),
    "guide.step2.title": "② Where it fails",
    "guide.step2.body": (
        "W₁q and W₂k each take one matrix multiply; the trouble comes "
        "after. Every pair (q, k) needs its own sum and a tanh over d<sub>a</sub> "
        "numbers, T²·d<sub>a</sub> of them in all, and that step does "
        "not factor into a matrix multiply. Written the direct way, it "
        "first materialises a T × T × d<sub>a</sub> tensor: at T = {example_t} "
        "and d<sub>a</sub> = {example_d_a} that is {additive_intermediate_gib} "
        "for one head of one layer, against {dot_scores_mib} for the "
        "T × T scores a dot product leaves."
    ),
    "guide.step3.title": "③ The improved scorer: the dot product",
    "guide.step3.body": (
        "q·k = q₁k₁ + q₂k₂ + … + q<sub>d</sub>k<sub>d</sub>: multiply dimension by "
        "dimension, then add. It equals |q| × |k| × cos θ: how well the directions line "
        "up, times both lengths. Stack every q into Q and every k into K, and one matrix "
        "multiply QKᵀ gives all T × T scores at once, with nothing else to hold. In the 2-D "
        "sample the three keys score {dialogue_scores}."
    ),
    "guide.measure.title": "Measure it here",
    "guide.measure.intro": (
        "Run both scorers {runs} times on this computer for one random sequence ({dtype}, "
        "d = d<sub>a</sub>) and compare time and peak memory."
    ),
    "guide.measure.t": "T (tokens)",
    "guide.measure.d_a": "dₐ",
    "guide.measure.run": "Run",
    "guide.measure.cancel": "Cancel",
    "guide.measure.running": "Measuring…",
    "guide.measure.cancelled": "Cancelled: nothing was measured.",
    "guide.measure.failed": "Could not measure: {reason}",
    "guide.measure.col_scorer": "scorer",
    "guide.measure.col_time": "time",
    "guide.measure.col_memory": "peak memory",
    "guide.measure.additive": "additive",
    "guide.measure.dot": "dot product",
    "guide.measure.ratio": "additive ÷ dot",
    "guide.measure.note": (
        "The additive scorer here works in blocks of at most {chunk}; holding every pair "
        "at once would take {naive}."
    ),
    # --- D: the measurement repeated (issue 15) ---
    "guide.measure.runs_done": "{done} of {runs} runs done",
    "guide.measure.spread": "The table shows the median of {runs} runs; the time ratio ranged from {low} to {high}. One computer varies from run to run, so read the median.",
    "guide.myth.title": "⚠ A common misconception",
    "guide.myth.claim": "“The dot product is the only correct choice.”",
    "guide.myth.body": (
        "No. Distance, cosine and small networks can all score a pair, "
        "and no theorem says it has to be the dot product. It won on "
        "three things together: a clear geometric meaning, one matrix "
        "multiply, and results that hold up. Modern models even bring "
        "back what cosine is good at: {anchor_name} applies an RMSNorm "
        "to every head's q and k (q_norm and k_norm, {anchor_head_dim} "
        "dims each) to pin their length, so the dot product behaves like "
        "cosine times a learned scale that every token shares (QK-Norm)."
    ),
    "guide.evidence.title": "Three layers of evidence",
    "guide.evidence.math": (
        "<b>Mathematics:</b> q·k = |q||k| cos θ grows as the directions align, and all "
        "pairs together are one matrix multiply QKᵀ."
    ),
    "guide.evidence.efficiency": (
        "<b>Efficiency:</b> on paper about as complex as additive attention, in practice "
        "much faster and far leaner in memory (measure it above)."
    ),
    "guide.evidence.results": (
        "<b>Results:</b> in the comparison the Transformer paper refers "
        "to, additive attention and the dot product are level for small "
        "d<sub>k</sub>; for large d<sub>k</sub> the dot product without "
        "scaling trails behind. Dividing by √d, next lesson's topic, comes from exactly this."
    ),
    "guide.summary.title": "In one sentence",
    "guide.summary.body": (
        "The dot product weighs two things at once, how well the directions "
        "line up and how long the vectors are, and a single matrix multiply "
        "scores every pair among T tokens."
    ),
    "guide.next.title": "The next gap",
    "guide.next.body": (
        "After ÷√{d} in the teaching world, the row of “{query}” holds "
        "the scores {given_row_scaled}. Some are negative and nothing "
        "caps them, so they cannot yet be read as how much attention "
        "each key gets. How does a row like this become a proper set "
        "of weights? Lesson 3 picks that up."
    ),
    "guide.try.title": "Try three things",
    "guide.try.done": "✓ done",
    "guide.try.todo": "○ not yet",
    # ---- the lesson's scenes (stepper and lesson mode) ----
    "guide.scene.counter": "{number} / {count}",
    "guide.scene.previous": "Previous scene (PageUp)",
    "guide.scene.next": "Next scene, or reveal the answer first (PageDown, Space)",
    "guide.scene.strip": "The lesson's scenes: click one to go there",
    "guide.scene.strip_tip": "Scene {number} of {count}: {title}",
    "guide.scene.reveal": "Reveal",
    "guide.scene.offer": "This is how the class left this scene.",
    "guide.scene.set_up": "Set it up again",
    "lesson.action.lesson": "Lesson mode",
    "lesson.action.next": "Next scene",
    "lesson.action.previous": "Previous scene",
    "lesson.action.first": "First scene",
    "lesson.action.last": "Last scene",
    "guide.try.one": (
        "In the 2-D sample select “{match}” and check {q_vec}·{k_vec} = {expansion} = "
        "{top_score}; then select “{car}” and see why it scores {car_score}: it points "
        "almost the opposite way."
    ),
    "guide.try.two": (
        "In the 4-D teaching world select “{query}” against “{object}”: which one of the "
        "per-dimension products contributes most?"
    ),
    "guide.try.three": (
        "Find keys that the dot product and cosine rank in opposite order (the match table "
        "marks them), select one, and work out which |k| causes it."
    ),
    "guide.ask.title": "Ask a question",
    "guide.ask.placeholder": "Type your question, then press Record…",
    "guide.ask.button": "Record",
    "guide.ask.saved": "Saved at {time}.",
    "guide.ask.failed": "Not saved: {reason}",
    "guide.ask.empty": "Type a question first.",
    "guide.ask.too_long": "The question is too long (at most {limit} characters).",
    "guide.ask.none": "No questions recorded yet; yours will be kept in {path}.",
    "guide.ask.recorded": "Questions recorded so far ({count}), kept in {path}:",
    "guide.ask.diverted": "{log} is not UTF-8 text, so it was left as it is; your question "
                          "was saved in {new} instead.",
    "guide.ask.skipped": "Some entries in {file} could not be read and are not shown "
                         "({count}):",
    "guide.ask.unreadable": "The questions in {file} cannot be shown: {reason}",
    "guide.faq.title": "You may ask",
    "guide.faq.cosine.q": (
        "Cosine ignores length and treats every key alike. Why not just use it?"
    ),
    "guide.faq.cosine.a": (
        "Length is exactly the extra knob the dot product has. Stretch "
        "q by c and every score in its row is multiplied by c: positive "
        "ones rise, negative ones fall, the gaps widen and the softmax "
        "concentrates; a shorter q spreads the weights out. So a token "
        "can use the length of its q to set how sharply it looks. Cosine "
        "removes that knob: scores stay within [−1, 1], and concentrating "
        "needs an extra temperature. QK-Norm sits in between: it normalises "
        "so lengths cannot run away, then multiplies by a learned gain. "
        "That gain is per dimension and shared by every token, so what "
        "it gives back is one temperature, not a per-token choice of how sharply to look."
    ),
    "guide.faq.additive.q": "Does anyone still use additive attention?",
    "guide.faq.additive.a": (
        "The full-attention layers of the models in this course ({anchor_name}, "
        "{glm53_name}, {dsv3_name}) all use the scaled dot product; MLA does too, only its "
        "K is expanded from a latent. Additive attention belongs to the era of RNN "
        "translators, but its idea (at every step, search softly back for the relevant "
        "positions) lives on in every one of them."
    ),
    "guide.faq.sum.q": "Why not simply divide each score by the row's sum?",
    "guide.faq.sum.a": (
        "Because scores can be negative. Shared out in proportion, the "
        "2-D sample's scores {dialogue_scores} would give “{car}” {dialogue_car_share_proportional}, "
        "and a negative share cannot be read as how much attention. Lesson "
        "3 shows how softmax gets around this."
    ),
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
    "classroom.autosave_off": "Autosave is off: changes are not being kept",
    "classroom.autosave_recovered": "Autosave works again ({file}).",
    "classroom.autosave_off_at_start": (
        "Autosave cannot write in {folder} ({problem}), so your work will not be kept "
        "automatically. Use File → Save as to keep it."
    ),
    "classroom.unwritable_text": (
        "the session holds text that cannot be saved as UTF-8 ({text})"
    ),
    "classroom.note": "Please read before you start:",
    "classroom.kept_aside": (
        "{file} could not be read by this version, so it was kept, not overwritten. "
        "It is now {path}"
    ),
    "classroom.kept_aside_status": (
        "Unreadable autosave files kept aside: {count} (see the note for where)."
    ),
    "classroom.autosave_not_moved": (
        "{path} could not be read and could not be moved aside ({problem}), so autosave "
        "will not write over it."
    ),
    "classroom.second_copy": (
        "Another Attention Lab is already running on this folder. This copy keeps its own "
        "autosave, {path}, and leaves the other copy's files alone."
    ),
    "classroom.second_copy_status": "Second copy: autosaving to {file}.",
    "classroom.quit_unsaved": "Your changes are not saved anywhere.",
    "classroom.quit_unsaved_detail": (
        "Autosave could not write in {folder} ({problem}). Save them to a file, or quit "
        "without them?"
    ),
    # --- reliability ---
    "reliability.paragraph": "{what} {work} {log}",
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
    "reliability.no_log": (
        "You can keep working. The technical details could not be written to the log."
    ),
    "reliability.no_user_folder": (
        "Autosave is off: {problem}. Keep your work with File → Save scenario as…."
    ),
    # ---- imported vectors (issue 17: a model's own q and k) ----
    "world.imported": "Imported vectors",
    "world.no_import_tip": "Nothing imported yet: open a .npz or .safetensors file with File → Import vectors….",
    "notice.no_import": "No vectors imported yet; open a file with File → Import vectors… first.",
    "notice.import_lacks_weights": "The imported file has no learned weights for {scorer}, so it cannot score this world.",
    "scorer.unavailable_import": "Not available: the imported file has no learned weights for it ({names}).",
    "classroom.action.import_vectors": "Import vectors…",
    "import.dialog": "Import the q and k a model computed",
    "import.filter": "Captured vectors (*.npz *.safetensors)",
    "import.head_title": "Choose a head",
    "import.head_prompt": "This file has {heads} heads. Which one?",
    "import.failed": "This file cannot be imported; nothing on screen changed.",
    "import.done": "Imported {file}: {queries} queries, {keys} keys, d = {d}.",
    "import.not_kept_title": "This import will not be kept.",
    "expansion.more_terms": "{count} smaller terms",
    "import.not_kept": "{file} holds {numbers} numbers; scenario files and the autosave keep at most {limit} (about 0.7 MB of text). When the app closes the import is gone; import the file again to see it.",
    "drop.refused": "This cannot be opened here, so nothing was changed.",
    "drop.several": "Drop one file at a time ({count} were dropped).",
    "drop.folder": "{name} is a folder. Drop one scenario (*.attnlab.json) or one captured model file (.npz, .safetensors).",
    "drop.not_local": "Only a file on this computer can be dropped here, not {url}.",
    "drop.unknown": "{name} is neither a scenario (*.attnlab.json) nor a captured model file (.npz, .safetensors).",
    "drop.unsaved": "Open {file} in place of what is on screen?",
    "drop.unsaved_detail": "Your changes since the last save are not in a scenario file. Save them first, or open the file anyway (Ctrl+Z brings them back).",
}
