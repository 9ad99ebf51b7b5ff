"""Objective makers other than the method's VLM: `derived` names each span from its actions and page titles."""
