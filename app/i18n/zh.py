"""Chinese strings (the app's first language). Keys must match en.py exactly."""

STRINGS: dict[str, str] = {
    "app.title": "注意力打分实验台",
    "about.text": (
        "<b>注意力打分实验台</b><br>"
        "拖动向量,观察查询 q 与键 k 的每一种打分如何随之变化,"
        "弄明白 Transformer 为什么最终选了点积。<br>"
        "配套课程:从 0 训练 LLM · C3 第 2 课。"
    ),
    "menu.file": "文件(&F)",
    "menu.edit": "编辑(&E)",
    "menu.view": "视图(&V)",
    "menu.language": "界面语言",
    "menu.world": "世界(&W)",
    "menu.help": "帮助(&H)",
    "toolbar.main": "主工具栏",
    "toolbar.world": " 世界:",
    "toolbar.scorer": " 打分函数:",
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
    "scorer.additive": "加性打分(Bahdanau)",
    "scorer.qk_norm": "QK-Norm 后点积",
    "status.pair": "查询「{query}」→ 键「{key}」  {scorer} = {score}",
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
        "拖动箭头尖端来改变向量(落在 0.5 的格点上,按住 Shift 可自由拖动)· 点击箭头选中它 · "
        "Tab 或数字键切换向量(0 是 q)· 方向键每次移动 0.5(按住 Shift 移动 0.1)"
    ),
    "playground.teaching_hint": (
        "这块平面画的是二维对话样本。现在打开的是四维教学世界:"
        "四维向量画不到平面上,请到「四维向量编辑器」里修改它们。"
    ),
    "playground.switch_world": "切换到二维对话样本",
    "playground.canvas_tip": "背景的颜色:如果把一个键 k 放在这里,当前的打分函数会给它多少分。",
    "playground.landscape_title": "背景:平面上每一点作为 k 时的分数 {formula}",
    "playground.q_label": "q:{name}",
    "playground.k_label": "k{number}:{name}",
    "playground.theta": "θ",
    "playground.projection": "|k|cos θ = {value}",
    "playground.query_line": "查询 q「{name}」= {vector}      |q| = {norm}",
    "playground.cos_undefined": "长度为 0 的向量没有方向,所以夹角 θ 和 cos θ 都没有定义。",
    "playground.identity": (
        "所选的键「{token}」:q·k = |q| × |k|cos θ   →   {dot} = {norm_q} × {projection}"
    ),
    # --- editor ---
    "editor.title": "四维向量编辑器",
    "editor.col_q": "查询向量 q",
    "editor.col_k": "键向量 k",
    "editor.pick_query_tip": "把「{name}」选为查询 q",
    "editor.pick_key_tip": "把「{name}」选为键 k",
    "editor.chart_tip": "{role}「{name}」:上下拖动柱子改变这一维的数值;单击选中这个词",
    "editor.entry_tip": "{role}「{name}」的第 {dim} 维:输入数值后按回车",
    "editor.help": (
        "上下拖动柱子改变数值(落在 0.1 的刻度上,按住 Shift 可自由拖动),"
        "或在柱子下方的框里输入数值再按回车 · 用 q / k 按钮选出要比较的一对词"
    ),
    "editor.dialogue_hint": (
        "这里编辑的是四维教学世界的向量。现在打开的是二维对话样本:"
        "它的向量请到「二维向量平面」里直接拖动。"
    ),
    "editor.switch_world": "切换到四维教学世界",
    "editor.rejected": "「{text}」不是 −{limit} 到 {limit} 之间的数,数值没有改变。",
    # --- heatmap ---
    "heatmap.title": "分数矩阵",
    "heatmap.mode_scores": "分数",
    "heatmap.mode_weights": "权重(softmax)",
    "heatmap.causal": "因果掩码",
    "heatmap.scale": "规模模式:随机 Q、K",
    "heatmap.scale_t_tip": "随机 Q、K 的序列长度 T",
    "heatmap.query_axis": "查询 i(行)",
    "heatmap.key_axis": "键 j(列)",
    "heatmap.readout": "{formula} = {value}",
    "heatmap.masked_note": "(未来位置的键:softmax 之前就被遮掉)",
    "heatmap.undefined_note": "(没有值:零长度向量没有方向)",
    "heatmap.lesson_info": "{rows} 个查询 × {cols} 个键 = {pairs} 个分数。点一个格子即选中这一对。",
    "heatmap.computing": "正在后台计算 T = {T}……",
    "heatmap.scale_info": (
        "T = {T},d = {d}:共 {pairs} 对(T²)。BF16 分数矩阵 {bytes};"
        "加性打分朴素实现的 T×T×d_a 中间张量 {additive}。"
        "画成 {pixels}×{pixels} 像素,每个像素代表 {factor}×{factor} 对。"
    ),
    "heatmap.scale_readout": "随机 Q、K(种子 {seed});每个像素显示它那一块里离 0 最远的值。",
    "heatmap.scale_hover": "查询 {queries} × 键 {keys}:{value}",
    "heatmap.scale_failed": "规模模式算不了这一组:{reason}",
    # --- expansion ---
    "expansion.title": "逐项展开",
    "expansion.heading": "q_{q_name} · k_{k_name}:逐维相乘再相加",
    "expansion.product_axis": "乘积 qᵢ×kᵢ",
    "expansion.dominant": "最大的一项 {term} = {value},占 Σ|qᵢkᵢ| 的 {share}",
    "expansion.polar": "|q| × |k| × cos θ = {nq} × {nk} × {cos} = {total}  (θ = {angle}°)",
    "expansion.polar_undefined": "|q| 或 |k| 为 0,θ 没有定义;q·k = {total}",
    "expansion.active_scorer": "当前打分函数:{formula} = {value}",
    # --- match ---
    "match.title": "三种匹配度",
    "match.caption": "查询「{query}」对每个键的打分与名次 · 点表头排序,点一行选中那个键",
    "match.col.key": "键",
    "match.col.norm": "|k|",
    "match.col.dot": "点积 q·k",
    "match.col.cosine": "余弦",
    "match.col.neg_euclidean": "负距离",
    "match.col.additive": "加性",
    "match.col.rank": "名次",
    "match.tip.key": "被打分的那个 token 的键",
    "match.tip.norm": "键的长度 |k|:点积把它算进去,余弦不管它,距离把它算作偏离",
    "match.tip.dot": "q·k = |q||k|cos θ:方向和长度都算",
    "match.tip.cosine": "q·k / (|q||k|):只看方向,取值在 −1 到 1 之间",
    "match.tip.neg_euclidean": "−|q−k|:离 q 越近分数越高,最高是 0",
    "match.tip.additive": "vᵀtanh(W₁q + W₂k):每一对单独过一个小网络(Bahdanau 2014)",
    "match.tip.rank": "按「{scorer}」排的名次,1 = 最匹配",
    "match.tip.undefined_cos": "余弦无定义:长度为 0 的向量没有方向",
    "match.show_additive": "显示加性打分",
    "match.tip.show_additive": "多加两列:Bahdanau 加性打分 vᵀtanh(W₁q + W₂k) 和它的名次",
    "match.reasons_title": "名次为什么对不上(点积 vs 余弦、距离)",
    "match.no_disagreement": "这一行里,点积、余弦和距离排出的先后完全一致。",
    "match.reason.cosine_longer": (
        "「{a}」的点积更大({da} > {db}),只因为它的 |k| 是「{b}」的 {ratio} 倍;按方向(余弦 {oa}"
        " < {ob}),「{b}」更接近 q。"
    ),
    "match.reason.cosine_shorter": (
        "两者都背离 q:「{a}」的点积更大({da} > {db}),只因为它更短——「{b}」的 |k| 是它的 {ratio}"
        " 倍,负得更多;按方向(余弦 {oa} < {ob}),「{b}」更接近 q。"
    ),
    "match.reason.distance_longer": (
        "「{a}」的点积更大({da} > {db}),但它的 |k| 是「{b}」的 {ratio} 倍,距离把多出的长度算作"
        "偏离:「{b}」离 q 更近(距离 {ob} < {oa})。"
    ),
    "match.reason.distance_zero": (
        "「{b}」是零向量,距离不会因长度罚它:它离 q 更近(距离 {ob} < {oa}),尽管「{a}」的点积更大"
        "({da} > {db})。"
    ),
    # --- shapes ---
    "shapes.title": "形状与规模",
    "shapes.head_title": "一个头的打分 S = Qₕ·Kₕᵀ",
    "shapes.flow_title": "解码层数据流 · {model}(点一个环节)",
    "shapes.lesson_scale": "课上小规模(T = {T},dₕ = {d})",
    "shapes.anchor_scale": "锚点模型(dₕ = {d})",
    "shapes.tip.slider": "序列长度 T(对数刻度):方向键走一档,PgUp / PgDn 翻倍或减半",
    "shapes.pairs": "每个头的配对数 T²",
    "shapes.score_bytes": "分数矩阵 T × T",
    "shapes.additive_bytes": "朴素加性的中间张量 T × T × dₐ",
    "shapes.bytes_note": "每个数 {bytes} 字节;dₐ = {d_a},即锚点模型的 head_dim。",
    "shapes.caption": "边长按对数比例画,边上标的是真实大小;同一个符号的边在整张图里一样长。",
    "shapes.detail.in": "输入:{tensors}",
    "shapes.detail.out": "输出:{tensors}",
    "shapes.detail.params": "可学习参数:{count}",
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
    "shapes.note.embedding": "用每个 token 的编号查表,取出一行向量。",
    "shapes.note.norm": "RMSNorm 把每个 token 的向量缩放到统一尺度,再乘一组可学习的增益。",
    "shapes.note.qkv": "同一个 x 分别乘三个矩阵得到 Q、K、V;{heads} 个查询头共用 {kv} 组 K、V。",
    "shapes.note.qk_norm": "每个头的 q、k 各做一次 {head_dim} 维的 RMSNorm,把长度钉在固定尺度上。",
    "shapes.note.rope": "按位置旋转 q、k 每头 {head_dim} 维中的 {rotary} 维;V 不转,也没有参数。",
    "shapes.note.scores": (
        "每个头一次矩阵乘 Sₕ = Qₕ·Kₕᵀ / √{head_dim};每 {group} 个查询头共用一个 K 头。"
    ),
    "shapes.note.softmax": "把每一行变成和为 1 的权重(因果掩码先把未来的位置置为 −∞)。",
    "shapes.note.weighted_v": "用权重对 V 加权求和,取回信息:每个头得到 {head_dim} 维。",
    "shapes.note.output_gate": (
        "由 x 算出 0 到 1 之间的门,逐元素乘到注意力输出上:这个头可以「这次不取」。"
    ),
    "shapes.note.o_proj": "把 {heads} 个头拼起来,投影回隐藏维度。",
    # --- timeline ---
    # --- guide ---
    # --- classroom ---
    "classroom.menu.recent": "最近的文件",
    "classroom.menu.export": "导出",
    "classroom.menu.theme": "配色",
    "classroom.action.open": "打开场景…",
    "classroom.action.save": "保存场景",
    "classroom.action.save_as": "场景另存为…",
    "classroom.action.export_window": "整个窗口存为图片(PNG/SVG)…",
    "classroom.action.export_panel": "当前面板存为图片(PNG/SVG)…",
    "classroom.action.export_scores": "分数矩阵存为 CSV…",
    "classroom.action.copy_window": "复制整个窗口的图片",
    "classroom.action.copy_panel": "复制当前面板的图片",
    "classroom.action.presentation": "演示模式",
    "classroom.action.zoom_in": "放大",
    "classroom.action.zoom_out": "缩小",
    "classroom.action.zoom_reset": "原始大小(100 %)",
    "classroom.action.full_screen": "全屏",
    "classroom.action.spotlight": "突出选中的这一对",
    "classroom.theme.light": "浅色",
    "classroom.theme.projector": "投影(高对比度)",
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
    "classroom.open_failed": "这个文件打不开,当前的内容没有任何改动。",
    "classroom.save_failed": "场景没能保存。",
    "classroom.export_failed": "导出的文件没能写入。",
    "classroom.opened": "已打开 {file}",
    "classroom.saved": "已保存 {file}",
    "classroom.exported": "已导出 {file}",
    "classroom.copied": "图片已复制到剪贴板",
    "classroom.scale": "缩放 {percent} %",
    "classroom.restored": "已按自动保存恢复上次的内容。",
    "classroom.restored_backup": "最新的自动保存已损坏,已恢复它之前的那一份。",
    "classroom.autosave_unreadable": "自动保存读不出来({problem}),从课程初始状态开始。",
    "classroom.autosave_failed": "自动保存没能写入文件:{problem}",
    # --- reliability ---
    "reliability.dialog_title": "实验台遇到了问题",
    "reliability.unexpected": (
        "实验台内部出现了一个意料之外的错误({problem}),这不是你的操作造成的。"
    ),
    "reliability.known": "实验台没能完成刚才的操作:{problem}。",
    "reliability.saved": "到此刻为止的工作已经自动保存。",
    "reliability.not_saved": "自动保存这次没能写入,请先不要关闭窗口。",
    "reliability.no_autosave": "目前没有需要保存的内容。",
    "reliability.log": "你可以继续使用。技术细节已写入 {log},报告问题时请附上这个文件。",
}
