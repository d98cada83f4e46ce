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
