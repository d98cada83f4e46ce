"""Chinese strings (the app's first language). Keys must match en.py exactly."""

STRINGS: dict[str, str] = {
    "app.title": "注意力打分实验台",
    "about.text": (
        "<b>注意力打分实验台</b><br>"
        "拖动向量，观察查询 q 与键 k 的每一种打分如何随之变化，"
        "弄明白 Transformer 为什么最终选了点积。<br>"
        "配套课程：从 0 训练 LLM · C3 第 2 课。"
    ),
    "menu.file": "文件(&F)",
    "menu.edit": "编辑(&E)",
    "menu.view": "视图(&V)",
    "menu.language": "界面语言",
    "menu.world": "世界(&W)",
    "menu.help": "帮助(&H)",
    "toolbar.main": "主工具栏",
    "toolbar.world": " 世界：",
    "toolbar.scorer": " 打分函数：",
    "action.undo": "撤销",
    "action.redo": "重做",
    "action.reset_lesson": "恢复课程初始数据",
    "action.quit": "退出",
    "action.reset_layout": "恢复默认布局",
    "action.shortcuts": "快捷键一览",
    "action.about": "关于",
    "language.zh": "中文",
    "language.en": "English",
    "world.dialogue": "二维对话样本",
    "world.teaching": "四维教学世界",
    "scorer.dot": "点积 q·k",
    "scorer.scaled_dot": "缩放点积 q·k/√d",
    "scorer.cosine": "余弦相似度",
    "scorer.neg_euclidean": "负欧氏距离",
    "scorer.additive": "加性打分（Bahdanau）",
    "scorer.qk_norm": "QK-Norm 后点积",
    "status.pair": "查询「{query}」→ 键「{key}」  {scorer} = {score}",
    # --- notices ---
    "notice.settings_unusable": "设置文件无法使用（{problem}），已原样保留；本次的设置不会被保存。",
    "notice.unknown_world": "没有叫「{name}」的世界。",
    "notice.unknown_scorer": "没有叫「{name}」的打分函数。",
    "notice.no_pair": "没有这一对：查询 {query}、键 {key}。",
    # --- reshaping the 4-D world (issue 17) ---
    "reshape.new_stem": "新词",
    "editor.reshape.token": "词：",
    "editor.reshape.token_tip": "「改名」和「删除」作用于这个词",
    "editor.reshape.name": "新名字",
    "editor.reshape.name_tip": "先写名字（最多 {limit} 个字符），再按「改名」或「添加词」",
    "editor.reshape.rename": "改名",
    "editor.reshape.rename_tip": "把选中的词改成框里写的名字",
    "editor.reshape.add": "添加词",
    "editor.reshape.add_tip": "在句末加一个词，名字用框里写的（不写就叫「新词」加编号）；它的 q 和 k 从零开始",
    "editor.reshape.remove": "删除",
    "editor.reshape.remove_tip": "把选中的词连同它的 q、k 一起删掉",
    "editor.reshape.dim": "维度 d：",
    "editor.reshape.dim_tip": (
        "每个 q 和 k 有几个数（{low} 到 {high}）：新加的维度从零开始，去掉的维度连同数值一起去掉；"
        "按 Ctrl+Z 可以撤销。"
    ),
    "scorer.unavailable_reshaped": "现在用不了：它学好的权重对应课程的 d = {d}，而这个世界现在是 d = {now}。",
    "notice.token_name.empty": "词要有名字；没有改动。",
    "notice.token_name.spaces": "「{name}」的开头或结尾有空格；没有改动。",
    "notice.token_name.too_long": "「{name}」超过 {limit} 个字符；没有改动。",
    "notice.token_name.control": "词的名字里不能有控制字符（制表符、换行等）；没有改动。",
    "notice.token_name.taken": "已经有一个叫「{name}」的词了；没有改动。",
    "notice.tokens.too_few": "这个世界至少要有 {low} 个词；没有删除。",
    "notice.tokens.too_many": "屏幕上最多放得下 {high} 个词；没有添加。",
    "notice.no_token": "没有第 {index} 个词。",
    "notice.dimension.range": "维度 d 必须是 {low} 到 {high} 的整数，不能是 {d}；没有改动。",
    "notice.dimension.scorer": "{scorer}要用按 d = {d} 学好的权重，所以现在改用点积打分。",
    "notice.heads_odd_d": "要分成 {heads} 个头，维度 d 得能被 {heads} 整除，而这个四维世界是 d = {d}；没有改动。",
    "notice.dimension.heads": "d = {d} 不能平分成两个头，所以注意力又回到一个头。",
    "notice.scorer_reshaped": "{scorer}现在用不了：它学好的权重对应 d = {d}，而这个世界的 d 已经改了。",
    "lesson.reshaped_note": "这里引用的是课程原来那 {count} 个词的数值；你的四维世界已经改动过（增删、改名或改了维度）。",
    # --- end of reshaping ---
    "notice.not_a_number": "「{text}」不是数字，没有改动。",
    "notice.no_vector": "没有这个向量：{role}[{index}]。",
    "notice.wrong_length": "{role}[{index}] 需要正好 {count} 个数，没有改动。",
    "notice.not_finite": "只能输入有限的数（不能是 NaN 或无穷），没有改动。",
    "notice.clamped": "每个分量限制在 ±{limit} 之内，超出的部分已截到边界。",
    "notice.bad_option": "这个显示选项不能这样设，没有改动（{detail}）。",
    "notice.bad_positions": "位置需要每个向量一个整数，绝对值不超过 {limit}，没有改动。",
    # --- playground ---
    "playground.title": "二维向量平面",
    "playground.axis_x": "第 1 维",
    "playground.axis_y": "第 2 维",
    "playground.col_key": "键 k",
    "playground.col_vector": "坐标",
    "playground.col_dot": "q·k",
    "playground.col_norm": "|k|",
    "playground.col_cos": "cos θ",
    "playground.col_angle": "θ",
    "playground.help": (
        "拖动箭头尖端来改变向量（落在 0.5 的格点上，按住 Shift 可自由拖动）· 点击箭头选中它 · "
        "Tab 或数字键切换向量（0 是 q）· 方向键每次移动 0.5（按住 Shift 移动 0.1）"
    ),
    # --- E: the playground's RoPE-off baseline ---
    "playground.rope_note": "旋转位置编码已打开：表中是旋转后的 q·k；不旋转时依次是 {scores}。旋转不改变长度。",
    "playground.teaching_hint": (
        "这块平面画的是二维对话样本。现在打开的是四维教学世界："
        "四维向量画不到平面上，请到「四维向量编辑器」里修改它们。"
    ),
    "playground.switch_world": "切换到二维对话样本",
    "playground.canvas_tip": "背景的颜色：如果把一个键 k 放在这里，当前的打分函数会给它多少分。",
    "playground.landscape_title": "背景：平面上每一点作为 k 时的分数 {formula}",
    "playground.q_label": "q：{name}",
    "playground.k_label": "k{number}：{name}",
    "playground.theta": "θ",
    "playground.projection": "|k|cos θ = {value}",
    "playground.query_line": "查询 q「{name}」= {vector}      |q| = {norm}",
    "playground.cos_undefined": "长度为 0 的向量没有方向，所以夹角 θ 和 cos θ 都没有定义。",
    "playground.identity": (
        "所选的键「{token}」：q·k = |q| × |k|cos θ   →   {dot} = {norm_q} × {projection}"
    ),
    # --- editor ---
    "editor.title": "四维向量编辑器",
    "editor.title_imported": "向量编辑器（导入的模型，{d} 维）",
    "editor.title_width": "{d} 维向量编辑器",
    "editor.col_q": "查询向量 q",
    "editor.col_k": "键向量 k",
    "editor.pick_query_tip": "把「{name}」选为查询 q",
    "editor.pick_key_tip": "把「{name}」选为键 k",
    "editor.chart_tip": "{role}「{name}」：上下拖动柱子改变这一维的数值；单击选中这个词",
    "editor.entry_tip": "{role}「{name}」的第 {dim} 维：输入数值后按回车",
    "editor.help": (
        "上下拖动柱子改变数值（落在 0.1 的刻度上，按住 Shift 可自由拖动），"
        "或在柱子下方的框里输入数值再按回车 · 用 q / k 按钮选出要比较的一对词"
    ),
    "editor.dialogue_hint": (
        "这里编辑的是四维教学世界的向量。现在打开的是二维对话样本："
        "它的向量请到「二维向量平面」里直接拖动。"
    ),
    "editor.switch_world": "切换到四维教学世界",
    "editor.rejected": "「{text}」不是 −{limit} 到 {limit} 之间的数，数值没有改变。",
    # --- H: the editor in the imported world ---
    "editor.imported.pair": (
        "查询「{query}」（第 {qi} 个，共 {tq} 个）· 键「{key}」（第 {ki} 个，共 {tk} 个）。"
        "在热力图上点另一个格子，就能改另一对。"
    ),
    "editor.imported.largest": (
        "这一对在 {d} 个维度里 |qᵢ·kᵢ| 最大的 {count} 个，从大到小排列；拖动柱子即可修改："
    ),
    "editor.imported.all": "全部 {count} 个维度；拖动柱子即可修改：",
    "editor.imported.q_of": "「{name}」的 q",
    "editor.imported.k_of": "「{name}」的 k",
    "editor.imported.chart_tip": "「{name}」的 {role}：柱子下面的数字是维度编号，上下拖动柱子来修改",
    "editor.imported.dim": "维度：",
    "editor.imported.dim_tip": "{d} 个维度里的任意一个：旁边显示它的 q 和 k 的精确值",
    "editor.imported.fixed": "词元和宽度 d 由模型决定：增删、改名词元只在四维世界里可用。",
    "editor.imported.fixed_tip": (
        "导入的向量是训练好的模型为它自己的词元算出来的；换一个词元或换一个宽度，"
        "都得让模型重新算一遍，所以这里只能改数值。"
    ),
    # --- heatmap ---
    "heatmap.title": "分数矩阵",
    "heatmap.mode_scores": "分数",
    "heatmap.mode_weights": "权重（softmax）",
    "heatmap.causal": "因果掩码",
    "heatmap.scale": "规模模式：随机 Q、K",
    "heatmap.scale_t_tip": "随机 Q、K 的序列长度 T",
    "heatmap.query_axis": "查询 i（行）",
    "heatmap.key_axis": "键 j（列）",
    "heatmap.readout": "{formula} = {value}",
    "heatmap.masked_note": "（未来位置的键：softmax 之前就被遮掉）",
    "heatmap.undefined_note": "（没有值：零长度向量没有方向）",
    "heatmap.lesson_info": "查询 × 键：{rows} × {cols} = {pairs} 个分数。点一个格子即选中这一对。",
    "heatmap.computing": "正在后台计算 T = {T}……",
    "heatmap.scale_info": (
        "T = {T}，d = {d}：共 {pairs} 对（T²）。BF16 分数矩阵 {bytes}；"
        "加性打分朴素实现的 T×T×d_a 中间张量 {additive}。画成 {pixels}×{pixels} 像素，每个像素代表 {factor}×{factor} 对。"
    ),
    "heatmap.scale_readout": "随机 Q、K（种子 {seed}）；每个像素显示它那一块里绝对值最大的值。",
    "heatmap.scale_pending": "正在计算{scorer}的图……（变淡的是上一张）",
    "heatmap.scale_failed": "规模模式算不了这一组：{reason}",
    # --- D: weights follow the scorer, E·Eᵀ against Q·Kᵀ (issue 15) ---
    "heatmap.source_e": "E 的余弦",
    "heatmap.source_tip": "按下：不投影，直接比嵌入 E 两两的余弦；松开：先用 W_Q、W_K 投影成 Q、K，再用选中的打分方式打分",
    "heatmap.source_reshaped": "这个世界的词或维度改过了，数据文件里的嵌入 E 已经对不上。",
    "heatmap.q_length": "q 的长度",
    "heatmap.q_length_tip": "把 q 拉长或缩短再算权重（{low} 到 {high}）：点积的权重跟着变尖或变平，余弦的纹丝不动。",
    "heatmap.weights_note": "分数怎样变成权重，第 {lesson} 课细讲；这里先看一眼。",
    "heatmap.shows_e": "嵌入 E 直接两两比余弦，E 取自数据文件，没有投影",
    "heatmap.shows_qk": "投影后的 Q、K，打分方式：{scorer}",
    "heatmap.self_rank": "{shows}。「{token}」这一行里，「{token}」对自己的分数排第 {rank}（共 {count} 个）。",
    # --- expansion ---
    "expansion.title": "逐项展开",
    "expansion.heading": "q_{q_name} · k_{k_name}：逐维相乘再相加",
    "expansion.product_axis": "每根柱子是求和里的一项",
    "expansion.dominant": "最大的一项 {term} = {value}，占所有项绝对值之和的 {share}",
    "expansion.polar": "|q| × |k| × cos θ = {nq} × {nk} × {cos} = {total}  (θ = {angle}°)",
    "expansion.polar_undefined": "|q| 或 |k| 为 0，θ 没有定义；q·k = {total}",
    "expansion.active_scorer": "当前打分函数：{formula} = {value}",
    # --- expansion: the additive scorer's own steps (engineer C) ---
    "expansion.additive_heading": "q_{q_name} 和 k_{k_name}：一步步走一遍加性打分",
    "expansion.additive_count": (
        "W₁q 和 W₂k 可以合成矩阵乘法：Q·W₁ᵀ、K·W₂ᵀ 各做一次，所有词一起算完。合不起来的是"
        "每一对自己的相加和 tanh：这里 Tq·Tk·dₐ = {tq} × {tk} × {d_a}，要算 {here} 次 tanh；"
        "到了 T = {t}、dₐ = {lesson_d_a}，就是 {lesson} 次。"
    ),
    "expansion.additive_untrained": (
        "这里的 W₁、W₂、v 是随手定的，没有训练过：在这一行它们把「{top}」排在第一，"
        "这个排名说明不了语言里的任何规律。"
    ),
    "expansion.additive_untrained_plain": (
        "这里的 W₁、W₂、v 是随手定的，没有训练过：它们给出的排名说明不了语言里的任何规律。"
    ),
    # --- landscapes (engineer C) ---
    "landscapes.title": "四种打分地形",
    "landscapes.intro": "同一个 q（黑色箭头），四种办法给平面上每个点 k 打分；圆点是各个 key。",
    "landscapes.name.dot": "点积",
    "landscapes.name.cosine": "余弦",
    "landscapes.name.neg_euclidean": "负距离",
    "landscapes.name.additive": "加性",
    "landscapes.shape.dot": "垂直于 q 的直线：线性，能合成矩阵乘法",
    "landscapes.shape.cosine": "射线：只看方向",
    "landscapes.shape.neg_euclidean": "围着 q 的圆：只看远近",
    "landscapes.shape.additive": "弯曲、饱和：每一对都要过一个小网络",
    "landscapes.teaching_hint": "打分地形画在二维示例的平面上；四维世界没有能画它的平面。",
    # --- match ---
    "match.title": "三种匹配度",
    "match.caption": "查询「{query}」对每个键的打分与名次 · 点表头排序，点一行选中那个键",
    "match.col.key": "键",
    "match.col.norm": "|k|",
    "match.col.dot": "点积 q·k",
    "match.col.cosine": "余弦",
    "match.col.neg_euclidean": "负距离",
    "match.col.additive": "加性",
    "match.col.rank": "名次",
    # compact table (narrow dock): two-line headers, every score column stays on screen
    "match.col.short.key": "键",
    "match.col.short.norm": "|k|",
    "match.col.short.dot": "点积\nq·k",
    "match.col.short.cosine": "余弦",
    "match.col.short.neg_euclidean": "负\n距离",
    "match.col.short.additive": "加性",
    "match.col.short.rank": "名\n次",
    "match.tip.key": "被打分的那个 token 的键",
    "match.tip.norm": "键的长度 |k|：方向相同时，键越长点积越大；余弦不看长度；距离则把多出来的长度算成离 q 更远",
    "match.tip.dot": "q·k = |q||k|cos θ：方向和长度都算",
    "match.tip.cosine": "q·k / (|q||k|)：只看方向，取值在 −1 到 1 之间",
    "match.tip.neg_euclidean": "−|q−k|：离 q 越近分数越高，最高是 0",
    "match.tip.additive": (
        "vᵀtanh(W₁q + W₂k)：每一对单独过一个小网络（Bahdanau 2014）；这里的权重是示例数值，没有训练过，名次不说明什么"
    ),
    "match.tip.rank": "按「{scorer}」排的名次，1 = 最匹配",
    "match.tip.undefined_cos": "余弦无定义：长度为 0 的向量没有方向",
    "match.show_additive": "显示加性打分",
    "match.tip.show_additive": (
        "多加两列：Bahdanau 加性打分 vᵀtanh(W₁q + W₂k) 和它的名次。这里的 W₁、"
        "W₂、v 是随手给定的示例数值，没有训练过，所以这一列的名次不代表训练好的加性注意力会怎样排。"
    ),
    "match.reasons_title": "名次为什么对不上（点积 vs 余弦、距离）",
    "match.no_disagreement": "这一行里，点积、余弦和距离排出的先后完全一致。",
    "match.reason.cosine_longer": (
        "「{a}」的点积更大（{da} > {db}），只因为它的 |k| 是「{b}」的 {ratio} 倍；按方向（余弦 {oa} < {ob}），「{b}」更接近 q。"
    ),
    "match.reason.cosine_shorter": (
        "两者都背离 q：「{a}」的点积更大（{da} > {db}），只因为它更短——「{b}」的 |k| 是它的 {ratio}"
        " 倍，负得更多；按方向（余弦 {oa} < {ob}），「{b}」更接近 q。"
    ),
    "match.reason.distance_longer": (
        "「{a}」的点积更大（{da} > {db}），但它的 |k| 是「{b}」的 {ratio} 倍，距离把多出的长度算作"
        "偏离：「{b}」离 q 更近（距离 {ob} < {oa}）。"
    ),
    "match.reason.distance_zero": (
        "「{b}」是零向量，距离不会因长度罚它：它离 q 更近（距离 {ob} < {oa}），尽管「{a}」的点积更大"
        "({da} > {db})。"
    ),
    # --- shapes ---
    "shapes.title": "形状与规模",
    "shapes.head_title": "一个头的打分，和它占的内存",
    "shapes.flow_title": "解码层数据流 · {model}（点一个环节）",
    # --- H: the shapes panel in the imported world ---
    "shapes.import_note": (
        "你导入的是 {tq} 个查询 × {tk} 个键，d = {d}，每个头 {pairs} 个分数（见分数矩阵）。"
        "这里的尺寸是课上的例子和锚点模型的。"
    ),
    "shapes.lesson_scale": "课上：每头 {d} 维",
    "shapes.anchor_scale": "锚点模型：每头 {d} 维",
    "shapes.tip.slider": "序列长度 T（对数刻度）：方向键走一档，PgUp / PgDn 翻倍或减半",
    "shapes.pairs": "每个头的配对数 T²",
    "shapes.score_bytes": "分数矩阵 T × T",
    "shapes.additive_bytes": "朴素加性的中间张量 T × T × d<sub>a</sub>",
    "shapes.bytes_note": "每个数 {bytes} 字节；d<sub>a</sub> 起初取 {d_a}，即锚点模型的 head_dim。",
    # --- D: the square beside the cube (issue 15) ---
    "shapes.cube_caption": "加性打分先要落下 dₐ 张 T × T 叠成的立方体：{additive} 对 {scores}，正好 {ratio} 倍。正方形和立方体的正面按同一比例画，厚度只是示意。",
    "shapes.tip.d_a": "加性打分的隐藏维度 dₐ，也就是立方体有几层（课上取锚点模型的 head_dim，{head_dim}）",
    "shapes.caption": "边长取对数比例，边上标真实大小；同一个符号，边长处处相同。",
    "shapes.detail.in": "输入：{tensors}",
    "shapes.detail.out": "输出：{tensors}",
    "shapes.detail.params": "可学习参数：{count}",
    "shapes.stage.embedding": "词嵌入",
    "shapes.stage.norm": "输入归一化",
    "shapes.stage.qkv": "Q/K/V 投影",
    "shapes.stage.qk_norm": "q_norm / k_norm",
    "shapes.stage.rope": "RoPE 旋转",
    "shapes.stage.scores": "打分 S = QKᵀ",
    "shapes.stage.softmax": "softmax",
    "shapes.stage.weighted_v": "加权取 V",
    "shapes.stage.output_gate": "输出门",
    "shapes.stage.o_proj": "输出投影 o_proj",
    "shapes.note.embedding": "用每个 token 的编号查表，取出一行向量。",
    "shapes.note.norm": "RMSNorm 把每个 token 的向量缩放到统一尺度，再乘一组可学习的增益。",
    "shapes.note.qkv": "同一个 x 分别乘三个矩阵得到 Q、K、V；{heads} 个查询头共用 {kv} 组 K、V。",
    "shapes.note.qk_norm": "每个头的 q、k 各做一次 {head_dim} 维的 RMSNorm，把长度钉在固定尺度上。",
    "shapes.note.rope": "按位置旋转 q、k 每头 {head_dim} 维中的 {rotary} 维；V 不转，也没有参数。",
    "shapes.note.scores": (
        "每个头一次矩阵乘 S<sub>h</sub> = Q<sub>h</sub>·K<sub>h</sub>ᵀ / √{head_dim}；每 {group}"
        " 个查询头共用一个 K 头。"
    ),
    "shapes.note.softmax": "把每一行变成和为 1 的权重（因果掩码先把未来的位置置为 −∞）。",
    "shapes.note.weighted_v": "用权重对 V 加权求和，取回信息：每个头得到 {head_dim} 维。",
    "shapes.note.output_gate": (
        "由 x 算出 0 到 1 之间的门，逐元素乘到注意力输出上：这个头可以「这次不取」。"
    ),
    "shapes.note.o_proj": "把 {heads} 个头拼起来，投影回隐藏维度。",
    # --- timeline ---
    "timeline.title": "注意力的演进",
    "timeline.track.training": "训练时：让每个 token 用上句中其他 token 的信息",
    "timeline.track.generation": "生成时：怎样让要存的 K、V 越来越少",
    "timeline.track.training_short": "训练时",
    "timeline.track.generation_short": "生成时",
    "timeline.hint": "点一张卡片，或用 ←/→ 换阶段（↑/↓ 换轨道）、回车展开。选中一个阶段，其他视图会切到它要展示的样子。",
    "timeline.preview": "按回车才会换成这个阶段；其他视图现在仍是「{name}」。",
    "timeline.here": "你在这里",
    "timeline.solved": "解决了什么：",
    "timeline.stuck": "卡在哪里：",
    # --- E: live figures beside the lesson's ---
    "timeline.live_vs_lesson": "{live}（课文是 {lesson}）",
    "timeline.lesson_only": "课文中的 {lesson}",
    "timeline.sep": "、",
    "timeline.on": "打开",
    "timeline.off": "关闭",
    "timeline.rnn.chip": "RNN",
    "timeline.rnn.name": "起点：RNN 一个词接一个词地读",
    "timeline.rnn.solved": "参数个数和序列长度无关，多长的序列都能读；每一步只把一个固定大小的状态 h 传给下一步。",
    "timeline.rnn.stuck": (
        "第 t 步必须等第 t − 1 步算完：{rnn_serial_steps} 个 token 就是每层 {rnn_serial_steps} "
        "步串行，无法并行；第一个 token 的信息要经过 {rnn_hops_first_to_last} 次更新才传到最后一个。"
        "做翻译时，整句原文还得压进这一个向量里，这正是 Bahdanau 想打破的瓶颈。"
    ),
    "timeline.additive.chip": "加性注意力",
    "timeline.additive.name": "Bahdanau 加性注意力",
    "timeline.additive.solved": (
        "解码器每输出一步，就回头看原句的每个位置，用一个小网络给它打分："
        "score = vᵀ·tanh(W₁q + W₂k)，再按分数加权取回。从此不必把整句塞进一个定长向量。"
    ),
    "timeline.additive.stuck": (
        "每一对 (q, k) 都要单独过一次 tanh，没法交给一次矩阵乘。照公式直接写，要先造出 T × T × d<sub>a</sub> "
        "的中间张量：T = {example_t}、d<sub>a</sub> = {example_d_a} 时，"
        "一个头一层就是 {additive_intermediate_gib}（BF16）；点积只需留下 T × T 个分数，"
        "{dot_scores_mib}。而且它仍然挂在串行的 RNN 上。"
    ),
    "timeline.self_attention.chip": "自注意力",
    "timeline.self_attention.name": "自注意力：Q、K、V 三个投影 + 点积",
    "timeline.self_attention.solved": (
        "直接比较词嵌入向量，「{query}」最像的是它自己（余弦 {embed_cos_self}）"
        "，{embed_rank_last3} 垫底。先投影成 Q 和 K 再点积，「{query}」把自己排到最后，"
        "前三名成了 {qk_rank_top3}；所有配对由一次矩阵乘 QKᵀ 得出。取回的内容另用 V："
        "两个人名的 K 余弦高达 {names_k_cos}，只靠 K 分不清谁是谁。"
    ),
    "timeline.self_attention.stuck": (
        "没有缩放：每头 {anchor_head_dim} 维时，两个方差为 1 的随机向量的点积标准差是 "
        "{unscaled_dot_std}，同一行里分差很大是常事。分差 {exp_gap} 就意味着 "
        "e<sup>{exp_gap}</sup> ≈ {exp_20} 倍：softmax 几乎把权重全给一个键，"
        "梯度很难传回 W<sub>Q</sub>、W<sub>K</sub>。"
    ),
    "timeline.scaled_softmax.chip": "softmax ÷√d",
    "timeline.scaled_softmax.name": "softmax 与 ÷√d：缩放点积",
    "timeline.scaled_softmax.solved": (
        "softmax 把分数变成正的、加起来为 1 的权重，只看分数之间的差。简单地除以总和行不通："
        "二维样本的分数 {dialogue_scores} 会让「{car}」分到 {dialogue_car_share_proportional}。"
        "除以 √{anchor_head_dim} = {unscaled_dot_std}，点积的方差回到 1。"
    ),
    "timeline.scaled_softmax.stuck": (
        "训练时整句一起送进去。不加掩码，「{query}」这一行有 {unmasked_weight_on_answer} "
        "的注意力落在「{answer}」上，而它恰恰是要预测的那个词，loss 因此好看得不真实。"
    ),
    "timeline.causal.chip": "因果掩码",
    "timeline.causal.name": "因果掩码",
    "timeline.causal.solved": (
        "在 softmax 之前把右上三角设成 −∞，未来位置的权重正好是 0；一次前向就同时练到所有前缀。"
        "若把前缀一个个送进去，要 {causal_prefix_forwards} 次前向、共 {causal_prefix_positions} 个位置。"
    ),
    "timeline.causal.stuck": (
        "一行 softmax 的权重加起来只能是 1。「{query}」既要找「谁给的」又要找「给了什么」，"
        "只好把 {masked_weight_apple} 分给「{object}」、{masked_weight_xiaoming} 分给「{giver}」，"
        "取回的是两个 V 的混合。"
    ),
    "timeline.rope.chip": "RoPE",
    "timeline.rope.name": "旋转位置编码（RoPE）只转 Q 和 K",
    "timeline.rope.solved": (
        "q、k 各按自己的位置转过一个角度后，点积仍然由两者的内容决定，位置只通过带符号的偏移 j − i 起作用："
        "所有位置一起平移，分数一个都不变。V 不参与打分，也就不转；转了反而会把绝对位置掺进取回的内容。"
        "锚点模型每头 {anchor_head_dim} 维中只有 {anchor_rope_dims} 维参与旋转。"
    ),
    "timeline.rope.stuck": (
        "MLA 想把「从潜向量展开 K」的升维矩阵事先并进查询一侧，这样就不必真的展开 K。可旋转随位置而变，"
        "正好夹在这个升维矩阵和打分之间，并不进去。所以 MLA 另外留出 {qk_rope_head_dim} 维专门做 RoPE，单独缓存。"
    ),
    "timeline.multi_head.chip": "多头",
    "timeline.multi_head.name": "多头注意力",
    "timeline.multi_head.solved": (
        "同一组投影按列切成几个头，每个头各做各的 softmax，参数和乘法都不增加："
        "头 A 把 {head_a_weight_xiaoming} 给了「{giver}」，头 B 把 {head_b_weight_apple} "
        "给了「{object}」。锚点模型有 {anchor_q_heads} 个头，每头 {anchor_head_dim} 维。"
    ),
    "timeline.multi_head.stuck": (
        "生成时每步只出一个 token。若每一步都把全文重新送进去，提示 {prompt} 个 token、"
        "再生成 {generate} 个，就要算 {nocache_kv_computations} 份 K/V，其中 "
        "{nocache_kv_repeated} 份上一步刚算过；次数随长度的平方增长。"
    ),
    "timeline.sink.chip": "汇聚与出口",
    "timeline.sink.name": "旁支：注意力汇聚和它的出口",
    "timeline.sink.solved": (
        "注意力汇聚，指的是许多头把大量权重堆在某个几乎不提供信息的位置上（常常是第一个 token）"
        "，好给这份非分不可的权重找个去处。标准 softmax 逼每一行把权重全部分出去：「{object}」这一行的分数 {apple_row_scaled} 只差零点几"
        "，照样被分成 {apple_row_weights}。在分母里加一个可学习的 sink logit，"
        "或者在输出上乘一个门，这个头就可以「这次什么都不取」；锚点模型的输出门：{gate}。"
    ),
    "timeline.sink.stuck": (
        "这些出口管不管用，目前只有实验证据：Gated Attention 论文说门控「缓解」汇聚而不是消除它，"
        "据课文所说，DeepSeek-V4 也没有单独给出 sink logit 的消融实验（这一条是课文的说法，没有公开出处可查）。"
    ),
    "timeline.kv_cache.chip": "KV 缓存",
    "timeline.kv_cache.name": "KV 缓存",
    "timeline.kv_cache.solved": (
        "因果掩码保证旧 token 的 K、V 以后不会再变，存起来反复用就行：提示 {prompt} 个 token、"
        "再生成 {generate} 个，不缓存要算 {nocache_kv_computations} 份 K/V，"
        "缓存后只要 {cache_kv_computations} 份，输出一模一样。"
    ),
    "timeline.kv_cache.stuck": (
        "缓存随上下文线性增长。如果 {anchor_q_heads} 个查询头各存一份 K、V（MHA）"
        "，锚点模型的形状每个 token 要 {anchor_full_layers} 层 × 2 × {anchor_q_heads} "
        "× {anchor_head_dim} × {dtype_bytes} B = {anchor_mha_kib_per_token}，"
        "原生 {anchor_context} 上下文就是 {anchor_mha_gib_native}：只是一条请求，还没算权重。"
    ),
    "timeline.mqa.chip": "MQA",
    "timeline.mqa.name": "多查询注意力（MQA）：所有头共用一份 K、V",
    "timeline.mqa.solved": (
        "所有查询头只共用一份 K、V，缓存就按头数成倍缩小：锚点形状下每 token {anchor_mqa_kib_per_token}，"
        "{anchor_context} 上下文共 {anchor_mqa_gib_native}。"
    ),
    "timeline.mqa.stuck": (
        "质量可能下降，训练也可能不稳：GQA 论文表 1（T5-XXL，各任务平均分）里 MHA 是 "
        "{gqa_t5xxl_mha_avg}，MQA 是 {gqa_t5xxl_mqa_avg}。"
    ),
    "timeline.gqa.chip": "GQA",
    "timeline.gqa.name": "分组查询注意力（GQA）：几个头一组，共用 K、V",
    "timeline.gqa.solved": (
        "锚点模型的 {anchor_q_heads} 个查询头分成 {anchor_kv_groups} 组，"
        "每组 {heads_per_group} 个头共用一个 KV 头（组数 = KV 头数）"
        "：每 token {anchor_gqa_kib_per_token}，{anchor_context} 上下文 {anchor_gqa_gib_native}。"
        "T5-XXL 上 GQA-8 平均 {gqa_t5xxl_gqa8_avg}、每样本 {gqa_t5xxl_gqa8_time}："
        "质量接近 MHA（{gqa_t5xxl_mha_avg}、{gqa_t5xxl_mha_time}），速度接近 MQA（{gqa_t5xxl_mqa_time}）。"
    ),
    "timeline.gqa.stuck": (
        "KV 头再少就又回到 MQA。{ds67b_name} 已经只用 {ds67b_kv_heads} 个 KV 头，每 token 仍要 "
        "{dsllm67b_bytes_per_token}（每个查询头一份的话是 {dsllm67b_mha_bytes_per_token}）；"
        "假设给它一条 {long_context} token 的请求（它原生只支持 {ds67b_context} token），就要 {dsllm67b_gib_1m}。"
    ),
    "timeline.mla.chip": "MLA",
    "timeline.mla.name": "多头潜在注意力（MLA）：只存一个低秩潜向量",
    "timeline.mla.solved": (
        "不再存 K、V：每层每个 token 只存 {kv_lora_rank} 维潜向量加 {qk_rope_head_dim} 维 "
        "RoPE，共 {mla_numbers_per_layer} 个数，用到时再展开。{dsv2_name}（{dsv2_layers} 层）"
        "每 token {dsv2_bytes_per_token}，{dsv3_name}（{dsv3_layers} 层）{dsv3_bytes_per_token}。"
        "同按 BF16，比 {ds67b_name} 少 {dsv2_vs_67b_reduction_pct}；KV 再量化到约 {dsv2_kv_bits} bit，"
        "就少 {dsv2_quantized_reduction_pct}，和 DeepSeek-V2 报告的「少 {dsv2_kv_reduction_vs_67b}」对得上。"
    ),
    "timeline.mla.stuck": (
        "仍然随长度线性增长，打分也仍是 T × T：{glm53_name}（{glm53_from}）同样每层存 {mla_numbers_per_layer} "
        "个数、共 {glm53_layers} 层，每 token {glm53_bytes_per_token}；原生 {glm53_context} "
        "上下文的一条请求，光潜向量就要 {glm53_gib_native}。"
    ),
    "timeline.linear.chip": "线性 / 稀疏",
    "timeline.linear.name": "线性注意力与稀疏注意力",
    "timeline.linear.solved": (
        "不再让缓存跟着长度涨：锚点模型 {anchor_layers} 层中有 {anchor_linear_layers} 层完全不存 "
        "KV，只保留一个固定大小的状态（FP32 合计 {anchor_linear_state_mib}）"
        "，上下文再长也不变；这些层的细节留到 C11 章。DeepSeek-V4.1 把压缩、稀疏和低精度一起用上，"
        "课文引述它的模型卡：全局 KV 每 token {dsv41_global_kv_per_token}（{dsv41_global_kv_per_token_from}）。"
    ),
    "timeline.linear.stuck": (
        "一个固定大小的状态记不住任意多的键值对，所以锚点模型还留着 {anchor_full_layers} 层全注意力。稀疏注意力每一步只读一部分位置，可决定读哪些同样要花计算。"
    ),
    "timeline.live.none": "注意力出现之前，这里没有可以实时演示的东西：按 → 往下走。",
    "timeline.live.scorer": "其他视图现在使用的打分函数：{scorer}。",
    "timeline.weights.caption": "「{query}」这一行：softmax(q·k / √{d})",
    "timeline.weights.caption_causal": "「{query}」这一行：softmax(q·k / √{d})，加因果掩码",
    "timeline.weights.masked": "已遮住",
    "timeline.heads.caption": "「{query}」这一行，分成 {count} 个头（因果，÷√{d}）",
    "timeline.heads.head": "头 {name} · 第 {first}–{last} 维",
    "timeline.need_teaching": "切换到四维教学世界才能看到这一行。",
    "timeline.heads.none": "两个头要在四维教学世界里看。",
    "timeline.rope.caption": "二维样本，RoPE {state}：q 和每个键按自己的位置旋转",
    "timeline.rope.position_tip": "「{token}」的位置",
    "timeline.rope.shift": "所有位置一起 +1",
    "timeline.rope.col_key": "键",
    "timeline.rope.col_before": "平移前",
    "timeline.rope.col_after": "旋转后",
    "timeline.rope.unchanged": "每个分数都没变：位置只通过彼此之间的偏移起作用。",
    "timeline.rope.changed": "有分数变了：位置之间的偏移变了。",
    "timeline.rope.need_dialogue": "旋转位置编码在二维对话样本里演示。",
    # --- E: RoPE demo (frequency, RoPE-off baseline, what the rotation keeps) ---
    "timeline.rope.step": "位置每加 1，转",
    "timeline.rope.degrees": "弧度 ≈ {degrees}°",
    "timeline.rope.step_tip": "旋转的快慢：位置每前进 1，向量就多转这么多弧度。",
    "timeline.rope.col_offset": "偏移 j − i",
    "timeline.rope.col_off": "不旋转",
    "timeline.rope.table": "每个键的 q·k（|k| 是键的长度）：",
    "timeline.rope.keeps": (
        "旋转不改变长度：|q| 仍是 {q_len}，每个 |k| 也和不旋转时一样。分数会变，只是因为 k 相对 q "
        "多转了（j − i）× {step} 弧度：它取决于 q、k 的内容和带符号的偏移，与这对词落在第几个位置无关。"
    ),
    "timeline.sink.caption": "「{query}」这一行，加因果掩码",
    "timeline.sink.enable": "加一个 sink logit",
    "timeline.sink.value": "sink logit = {value}",
    "timeline.sink.sink": "汇聚",
    "timeline.sink.share": "汇聚位拿走 {share}，其余由真正的键分。",
    "timeline.sink.no_share": "没有汇聚位：这一行必须把权重全部分出去。",
    "timeline.kv.caption": "KV 内存（对数刻度）",
    "timeline.kv.per_token": "每 token",
    "timeline.kv.whole": "整段上下文",
    "timeline.kv.context": "上下文：{tokens} token",
    "timeline.kv.anchor": "锚点",
    "timeline.kv.state": "状态",
    "timeline.kv.model.dsllm67b": "DS 67B",
    "timeline.kv.model.dsv2": "DS-V2",
    "timeline.kv.model.dsv3": "DS-V3",
    "timeline.kv.model.glm53": "GLM-5.3",
    "timeline.kv.tip": "{model} · {scheme}：每 token {per_token}，{tokens} token 时 {total}",
    "timeline.kv.tip_state": "{model} · 固定状态：任意长度都是 {total}",
    # --- E: the KV chart names the stage's bars, and a request past a model's native length ---
    "timeline.kv.hypothetical": "（假设的请求：它原生只支持 {native} token）",
    "timeline.kv.beyond": "超出该模型原生的上下文：假设的请求",
    "timeline.kv.cell": "{name}：{total}",
    # --- E: where a number comes from ---
    "provenance.config": "数字来自公开的配置文件",
    "provenance.reported": "数字来自公开的论文或模型卡",
    "provenance.lesson": "数字只来自课文，没有公开出处可查",
    "timeline.kv.source": "锚点 {anchor} 的数字取自公开的 {config} 配置；标 † 的模型，数字只来自课文。",
    # --- guide ---
    "guide.title": "本课导读",
    "guide.question": "怎样给一对 q、k 打分，量出它们有多匹配？为什么偏偏选了点积？",
    "guide.intro": (
        "上一课之后，每个 token 手里已经有一个 q 和一个 k。接下来要找一个打分函数 f(q, k)："
        "拿两个向量进来，给出一个数；这个数越大，表示这个 k 和 q 想找的内容越对得上。光是「{query}」一个词，"
        "就要对每个 token 各打一次分；整句要打 {sentence_pairs} 次；锚点模型的一个头在满上下文时要打 {anchor_pairs_per_head} "
        "次。因此 f 除了要打得准，还必须算得快、不占多少内存。"
    ),
    "guide.step1.title": "① 朴素方案：加性注意力",
    "guide.step1.body": (
        "让一个小网络给每一对打分：score = vᵀ·tanh(W₁q + W₂k)。它非常灵活，"
        "怎样才算「匹配」都可以学出来；注意力机制正是从它开始的（Bahdanau，{additive_year}）。"
    ),
    "guide.step2.title": "② 它在哪里失败",
    "guide.step2.body": (
        "W₁q 和 W₂k 各自一次矩阵乘就能算完，卡住的是后面一步：每一对 (q, k) 都要把两者相加，"
        "再对 d<sub>a</sub> 个数各做一次 tanh，一共 T²·d<sub>a</sub> 次，"
        "这一步拆不成矩阵乘。照公式直接写，要先造出 T × T × d<sub>a</sub> 的中间张量："
        "T = {example_t}、d<sub>a</sub> = {example_d_a} 时，"
        "一个头一层就是 {additive_intermediate_gib}；点积最后只留下 T × T 个分数，{dot_scores_mib}。"
    ),
    "guide.step3.title": "③ 改进方案：点积",
    "guide.step3.body": (
        "q·k = q₁k₁ + q₂k₂ + … + q<sub>d</sub>k<sub>d</sub>：逐维相乘，再加起来。"
        "它等于 |q| × |k| × cos θ，也就是方向对得有多齐，再乘上两者的长度。把所有 q 摞成 Q、"
        "所有 k 摞成 K，一次矩阵乘 QKᵀ 就得到全部 T × T 个分数，不需要额外存别的东西。"
        "二维样本里三个键的分数是 {dialogue_scores}。"
    ),
    "guide.measure.title": "在这台电脑上量一量",
    "guide.measure.intro": (
        "用一段随机序列（{dtype}，d = d<sub>a</sub>）在本机把两种打分各跑 {runs} 遍，比较耗时和内存峰值。"
    ),
    "guide.measure.t": "T（token 数）",
    "guide.measure.d_a": "dₐ",
    "guide.measure.run": "开始",
    "guide.measure.cancel": "取消",
    "guide.measure.running": "正在测量…",
    "guide.measure.cancelled": "已取消，没有得到测量结果。",
    "guide.measure.failed": "无法测量：{reason}",
    "guide.measure.col_scorer": "打分方式",
    "guide.measure.col_time": "耗时",
    "guide.measure.col_memory": "内存峰值",
    "guide.measure.additive": "加性",
    "guide.measure.dot": "点积",
    "guide.measure.ratio": "加性 ÷ 点积",
    "guide.measure.note": "这里的加性打分按块计算，每块最多 {chunk}；如果一次性存下所有配对，需要 {naive}。",
    # --- D: the measurement repeated (issue 15) ---
    "guide.measure.runs_done": "已跑完 {done} / {runs} 遍",
    "guide.measure.spread": "表里是 {runs} 遍的中位数；各遍的耗时比从 {low} 到 {high} 不等。同一台电脑每次都有出入，所以看中位数。",
    "guide.myth.title": "⚠ 常见误解",
    "guide.myth.claim": "「点积是唯一正确的选择。」",
    "guide.myth.body": (
        "不是。距离、余弦、小网络都能给一对向量打分，没有哪条定理规定必须用点积。点积胜出靠的是三点同时成立："
        "几何意义清楚、一次矩阵乘算完、实验效果站得住。现代模型甚至在把余弦的长处找回来：{anchor_name} 对每个头的 "
        "q、k 先做 RMSNorm（q_norm、k_norm，各 {anchor_head_dim} 维）"
        "，把长度固定住，点积就接近「余弦 × 一组学出来、所有 token 共用的尺度」（QK-Norm）。"
    ),
    "guide.evidence.title": "三层证据",
    "guide.evidence.math": "<b>数学：</b>q·k = |q||k| cos θ，方向越一致越大；所有配对合起来就是一次矩阵乘 QKᵀ。",
    "guide.evidence.efficiency": "<b>效率：</b>纸面上和加性注意力复杂度相当，实际跑起来快得多，也省内存得多（上面可以亲手量）。",
    "guide.evidence.results": (
        "<b>效果：</b>Transformer 论文提到的对比实验显示：d<sub>k</sub> 较小时，"
        "加性注意力和点积不相上下；d<sub>k</sub> 变大后，不加缩放的点积落在了加性注意力后面。下一课要讲的「除以 √d」正是为此而来。"
    ),
    "guide.summary.title": "一句话",
    "guide.summary.body": "点积同时看两件事：方向对得多齐，向量有多长；T 个 token 之间的所有配对，一次矩阵乘就全部打完分。",
    "guide.next.title": "下一个缺口",
    "guide.next.body": (
        "在教学世界里除以 √{d} 之后，「{query}」这一行的分数是 {given_row_scaled}。"
        "它们有正有负，也没有上限，还不能读成「分给每个键多少注意力」。怎样把这样一行分数变成一组合格的权重？第 3 课接着讲。"
    ),
    "guide.try.title": "试三件事",
    "guide.try.done": "✓ 已完成",
    "guide.try.todo": "○ 还没做",
    # ---- the lesson's scenes (stepper and lesson mode) ----
    "guide.scene.counter": "{number} / {count}",
    "guide.scene.previous": "上一幕（PageUp）",
    "guide.scene.next": "下一幕；有待揭晓的答案时先揭晓（PageDown、空格）",
    "guide.scene.strip": "本课的各幕：点一下就跳过去",
    "guide.scene.strip_tip": "第 {number} / {count} 幕：{title}",
    "guide.scene.reveal": "揭晓",
    "guide.scene.offer": "这是全班上次离开这一幕时的样子。",
    "guide.scene.set_up": "恢复这一幕",
    "lesson.action.lesson": "课堂模式",
    "lesson.action.next": "下一幕",
    "lesson.action.previous": "上一幕",
    "lesson.action.first": "第一幕",
    "lesson.action.last": "最后一幕",
    "guide.try.one": (
        "在二维样本里选中「{match}」，核对 {q_vec}·{k_vec} = {expansion} = {top_score}；"
        "再选中「{car}」，看看它为什么是 {car_score}：它的方向几乎和 q 相反。"
    ),
    "guide.try.two": "到四维教学世界里选「{query}」对「{object}」：逐维乘积里哪一项贡献最大？",
    "guide.try.three": "找出点积和余弦排序相反的键（匹配度表里会标出来），选中其中一个，想一想是哪个 |k| 造成的。",
    "guide.ask.title": "提一个问题",
    "guide.ask.placeholder": "在这里输入你的问题，然后点「记录」…",
    "guide.ask.button": "记录",
    "guide.ask.saved": "已于 {time} 保存。",
    "guide.ask.failed": "没有保存：{reason}",
    "guide.ask.empty": "请先输入问题。",
    "guide.ask.too_long": "问题太长了（最多 {limit} 个字符）。",
    "guide.ask.none": "还没有记录任何问题；你的提问会保存在 {path}。",
    "guide.ask.recorded": "已记录的问题（{count} 条），保存在 {path}：",
    "guide.ask.diverted": "{log} 不是 UTF-8 编码的文本，所以原样保留、没有改动；"
                          "你的问题另存到了 {new}。",
    "guide.ask.skipped": "{file} 里有 {count} 条记录读不出来（比如日期写错了），没有显示：",
    "guide.ask.unreadable": "{file} 里的问题无法显示：{reason}",
    "guide.faq.title": "你可能会问",
    "guide.faq.cosine.q": "余弦不看长度，对每个键一视同仁，为什么不干脆用它？",
    "guide.faq.cosine.a": (
        "长度恰恰是点积多出来的一个旋钮。把 q 拉长 c 倍，这一行的每个分数都乘以 c：正的更高，"
        "负的更低，分差被拉大，softmax 也就更集中；q 越短，权重越平均。所以一个 token 可以借 q 的长度调节自己看得多集中。"
        "余弦拆掉了这个旋钮：分数只能落在 [−1, 1] 里，想集中只能额外乘一个温度。QK-Norm 折中："
        "先归一化，免得长度失控，再乘一组学出来的增益。这组增益按维度设定、所有 token 共用，所以它还给模型的只是一个整体的温度，而不是每个 token 各自决定看得多集中。"
    ),
    "guide.faq.additive.q": "现在还有人用加性注意力吗？",
    "guide.faq.additive.a": (
        "本课程里的模型（{anchor_name}、{glm53_name}、{dsv3_name}）的全注意力层用的都是缩放点积；"
        "MLA 也是，只不过 K 是从潜向量展开的。加性注意力属于 RNN 翻译模型的年代，"
        "但它的想法，即每一步都回头「软搜索」相关位置，被这些模型完整地继承了下来。"
    ),
    "guide.faq.sum.q": "为什么不直接拿每个分数除以这一行的总和？",
    "guide.faq.sum.a": (
        "因为分数可能是负数。二维样本的分数 {dialogue_scores} 按占比分，「{car}」会分到 {dialogue_car_share_proportional}："
        "负的份额没法解释成「关注多少」。第 3 课会讲 softmax 怎样绕开这个问题。"
    ),
    # --- classroom ---
    "classroom.menu.recent": "最近的文件",
    "classroom.menu.export": "导出",
    "classroom.menu.theme": "配色",
    "classroom.action.open": "打开场景…",
    "classroom.action.save": "保存场景",
    "classroom.action.save_as": "场景另存为…",
    "classroom.action.export_window": "整个窗口存为图片（PNG/SVG）…",
    "classroom.action.export_panel": "当前面板存为图片（PNG/SVG）…",
    "classroom.action.export_scores": "分数矩阵存为 CSV…",
    "classroom.action.copy_window": "复制整个窗口的图片",
    "classroom.action.copy_panel": "复制当前面板的图片",
    "classroom.action.presentation": "演示模式",
    "classroom.action.zoom_in": "放大",
    "classroom.action.zoom_out": "缩小",
    "classroom.action.zoom_reset": "原始大小（100 %）",
    "classroom.action.full_screen": "全屏",
    "classroom.action.spotlight": "突出选中的这一对",
    "classroom.theme.light": "浅色",
    "classroom.theme.projector": "投影（高对比度）",
    "classroom.theme.dark": "深色",
    "classroom.dialog.open": "打开场景文件",
    "classroom.dialog.save": "保存场景文件",
    "classroom.dialog.export_image": "导出图片",
    "classroom.dialog.export_scores": "导出分数矩阵",
    "classroom.filter.scenario": "注意力实验台场景 (*.attnlab.json)",
    "classroom.filter.json": "JSON 文件 (*.json)",
    "classroom.filter.all": "所有文件 (*)",
    "classroom.filter.png": "PNG 图片 (*.png)",
    "classroom.filter.svg": "SVG 矢量图 (*.svg)",
    "classroom.filter.csv": "CSV 表格 (*.csv)",
    "classroom.open_failed": "这个文件打不开，当前的内容没有任何改动。",
    "classroom.save_failed": "场景没能保存。",
    "classroom.export_failed": "导出的文件没能写入。",
    "classroom.opened": "已打开 {file}",
    "classroom.saved": "已保存 {file}",
    "classroom.exported": "已导出 {file}",
    "classroom.copied": "图片已复制到剪贴板",
    "classroom.scale": "缩放 {percent} %",
    "classroom.restored": "已按自动保存恢复上次的内容。",
    "classroom.restored_backup": "最新的自动保存已损坏，已恢复它之前的那一份。",
    "classroom.autosave_unreadable": "自动保存读不出来（{problem}），从课程初始状态开始。",
    "classroom.autosave_failed": "自动保存没能写入文件：{problem}",
    "classroom.autosave_off": "自动保存已停止：改动没有被保存",
    "classroom.autosave_recovered": "自动保存恢复正常（{file}）。",
    "classroom.autosave_off_at_start": (
        "自动保存无法写入 {folder}（{problem}），所以你的改动不会被自动保存。"
        "需要保留时，请用“文件 → 另存为”。"
    ),
    "classroom.unwritable_text": "当前内容里有无法按 UTF-8 保存的文字（{text}）",
    "classroom.note": "开始之前，请先看一下：",
    "classroom.kept_aside": "这个版本读不出 {file}，所以把它原样留了下来，没有覆盖。它现在是 {path}",
    "classroom.kept_aside_status": "有 {count} 个读不出的自动保存文件已另行保留（位置见提示框）。",
    "classroom.autosave_not_moved": (
        "{path} 读不出来，也没法挪到别的名字（{problem}），所以自动保存不会覆盖它。"
    ),
    "classroom.second_copy": (
        "这个文件夹已经有一个实验台在运行。这个窗口使用自己的自动保存文件 {path}，"
        "不会动另一个窗口的文件。"
    ),
    "classroom.second_copy_status": "第二个窗口：自动保存到 {file}。",
    "classroom.quit_unsaved": "你的改动还没有保存在任何地方。",
    "classroom.quit_unsaved_detail": "自动保存无法写入 {folder}（{problem}）。要先保存到文件，还是不保存直接退出？",
    # --- reliability ---
    "reliability.paragraph": "{what}{work}{log}",
    "reliability.dialog_title": "实验台遇到了问题",
    "reliability.unexpected": (
        "实验台内部出现了一个意料之外的错误（{problem}），这不是你的操作造成的。"
    ),
    "reliability.known": "实验台没能完成刚才的操作：{problem}。",
    "reliability.saved": "到此刻为止的工作已经自动保存。",
    "reliability.not_saved": "自动保存这次没能写入，请先不要关闭窗口。",
    "reliability.no_autosave": "目前没有需要保存的内容。",
    "reliability.log": "你可以继续使用。技术细节已写入 {log}，报告问题时请附上这个文件。",
    "reliability.no_log": "你可以继续使用，只是技术细节没能写入日志文件。",
    "reliability.no_user_folder": "自动保存已关闭：{problem}。请用“文件 → 场景另存为…”把工作存到别处。",
    # ---- imported vectors (issue 17: a model's own q and k) ----
    "world.imported": "导入的向量",
    "world.no_import_tip": "还没有导入向量：用“文件 → 导入向量…”打开一个 .npz 或 .safetensors 文件。",
    "notice.no_import": "还没有导入向量；先用“文件 → 导入向量…”打开一个文件。",
    "notice.import_lacks_weights": "导入的文件里没有{scorer}学到的权重，所以这个打分函数在这里用不了。",
    "scorer.unavailable_import": "用不了：导入的文件里没有它学到的权重（{names}）。",
    "classroom.action.import_vectors": "导入向量…",
    "import.dialog": "导入模型算出的 q 和 k",
    "import.filter": "捕获的向量（*.npz *.safetensors）",
    "import.head_title": "选择注意力头",
    "import.head_prompt": "这个文件有 {heads} 个头，要看哪一个？",
    "import.failed": "这个文件导入不了，屏幕上什么都没变。",
    "import.done": "已导入 {file}：{queries} 个查询、{keys} 个键，d = {d}。",
    "import.not_kept_title": "这次导入不会被保存。",
    "expansion.more_terms": "其余 {count} 项（每一项都更小）",
    "import.not_kept": "{file} 有 {numbers} 个数，而场景文件和自动保存最多只存 {limit} 个数（大约 0.7 MB 的文本）。程序关掉以后，这次导入就不在了；要再看，请重新导入这个文件。",
    "drop.refused": "这里打不开它，当前的内容没有任何改动。",
    "drop.several": "一次只能拖进一个文件（这次拖进了 {count} 个）。",
    "drop.folder": "{name} 是一个文件夹。请拖进一个场景文件（*.attnlab.json）或一个模型捕获文件（.npz、.safetensors）。",
    "drop.not_local": "只能拖进这台电脑上的文件，{url} 不行。",
    "drop.unknown": "{name} 既不是场景文件（*.attnlab.json），也不是模型捕获文件（.npz、.safetensors）。",
    "drop.unsaved": "要打开 {file}，换掉屏幕上现在的内容吗？",
    "drop.unsaved_detail": "上次保存之后的改动还没有存进场景文件。可以先保存，也可以直接打开（按 Ctrl+Z 就能找回这些改动）。",
}
