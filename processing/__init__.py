"""Tutorial videos to objective-tagged trajectories and their index."""
