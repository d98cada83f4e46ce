"""Reading a local Hugging Face checkpoint and running its forward pass in NumPy, so a
student's own model shows the q and k its dot product really scores, with no torch.

`open_checkpoint(folder)` reads the folder's config, weights and tokenizer; its
`queries_keys(text, layer)` answers one layer's q and k per head over the text's tokens;
`head_capture` makes one head of it the lab's imported world.
"""

from app.model.checkpoint.checkpoint import Checkpoint, LayerQK, open_checkpoint
from app.model.checkpoint.head import attention_maps, head_capture, index_in, read_head
from app.model.checkpoint.refusal import CheckpointError

__all__ = ["Checkpoint", "CheckpointError", "LayerQK", "attention_maps", "head_capture",
           "index_in", "open_checkpoint", "read_head"]
