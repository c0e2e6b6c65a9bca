"""Interactions no honest client sends: a component id lifted from one message and sent from
another server, a DM, or on a message that never carried it; a select's id sent as a button."""

from __future__ import annotations

from typing import Any

from discord import AppCommandType, ComponentType, InteractionType
from simcord.actors import _dispatch_actor_interaction
from simcord.backend import serializers


async def forge_click(
    env: Any,
    actor: Any,
    channel: Any,
    message: Any,
    custom_id: str,
    *,
    values: list[str] | None = None,
    carried: dict[str, Any] | None = None,
) -> Any:
    """``actor`` clicks ``custom_id`` on ``message`` (which carries it, as far as the client knows,
    or carries ``carried`` instead) from ``channel``; with ``values`` the component is a select."""
    stored = env.backend.get_message(message.channel.id, message.id)
    payload = dict(serializers.message_payload(env.backend, stored))
    if values is None:
        component: dict[str, Any] = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.button.value}
    else:
        options = [{"label": value, "value": value} for value in values] or [{"label": "x", "value": "x"}]
        component = {"type": 3, "custom_id": custom_id, "options": options}
        data = {"custom_id": custom_id, "component_type": ComponentType.select.value, "values": values}
    payload["components"] = [{"type": 1, "components": [carried or component]}]
    return await _dispatch_actor_interaction(
        actor,
        InteractionType.component.value,
        channel,
        data,
        extra={"message": payload},
        source_message_id=message.id,
    )


async def forge_slash(actor: Any, channel: Any, name: str, options: dict[str, tuple[int, Any]]) -> Any:
    """``/name`` with options of any JSON value, whatever the command declares: ``options`` maps
    an option's name to (its Discord option type, the value sent)."""
    group, _, sub = name.partition(" ")
    root = actor._resolve_root(group, AppCommandType.chat_input.value, channel.id)
    leaf = [{"name": key, "type": kind, "value": value} for key, (kind, value) in options.items()]
    data = {
        "id": root["id"],
        "name": root["name"],
        "type": AppCommandType.chat_input.value,
        "options": [{"type": 1, "name": sub, "options": leaf}] if sub else leaf,
    }
    return await _dispatch_actor_interaction(actor, InteractionType.application_command.value, channel, data)
