"""`process-videos --verify`: each indexed trajectory carried out on the live, reset site before an agent trusts it."""
