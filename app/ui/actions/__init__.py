"""The window's actions, each declared (`spec.ActionSpec`) beside what it acts on: files and
the session (`files`), exports (`exports`), the document (`editing`), presentation mode and
zoom (`presenting`), the lesson's stepping (`scenes`), languages (`languages`) and help
(`window`). `registry.Actions` makes them; menus and the toolbar list them."""
