"""The model-free action labeler: a tutorial video's actions from the pointer, pixel differences and OCR.

A baseline beside the VLM labeler (`--labeler ocr`), reported as what it is. The parts,
in the order the data flows:

- `frames`: frames as YUV planes at the analysis rate, and a short buffer of recent ones;
- `pointer`: finding the mouse pointer by template matching;
- `changes`, `scroll`, `ring`: what changed between frames, scrolling, click highlights;
- `unpointed`, `naming`, `icons`, `ocr`: reading what is under the pointer (RapidOCR);
- `observe`: the streaming pass that records all of it, and `events`, which turns it into actions;
- `labeler`: `OcrLabeler`, and `plugin`, its adapter to the processing pipeline.
"""
