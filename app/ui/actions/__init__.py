"""The window's actions, each set beside what it acts on: files and the session (`files`),
exports (`exports`), presentation mode and zoom (`presenting`). The main window only puts
their actions into its menus and toolbar."""
