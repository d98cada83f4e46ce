"""The lesson as data: its bundled worlds, scenes, each scene's set-up and its published figures."""
