"""The model-free baseline (`--policy replay`): embedding selection and the replay of the chosen steps."""
