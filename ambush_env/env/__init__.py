"""The Gymnasium layer: observation spec and builder, rewards, the env, registration."""

from ambush_env.env.registration import env_id, list_missions, register_envs

__all__ = ["env_id", "list_missions", "register_envs"]
