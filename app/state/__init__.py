"""The document layer: Qt signals and undo, but no widgets."""
