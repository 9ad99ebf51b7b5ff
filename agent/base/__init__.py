"""The base web agents (AgentOccam, the default, and ReAct) and what they share; imports no other room of agent/."""
