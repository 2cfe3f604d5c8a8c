"""Native tool calling: the loop absorbed into the API (notebook 13).

The model now returns a structured call instead of an ``Action i:`` line, and the observation goes back as a
``tool`` message. The syntax changed; the loop did not: the same wiki, the same budget of calls.

    >>> [t["function"]["name"] for t in TOOLS]
    ['search', 'lookup', 'finish']
"""
from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Callable

from react_teach import llm as llm_mod
from react_teach.trajectory import Step, Trajectory, Usage
from react_teach.wiki import WikiEnv

TOOLS = [
    {"type": "function", "function": {
        "name": "search", "description": "Search Wikipedia for an exact title; returns the first five sentences "
                                         "of the page, or similar titles when there is no such page.",
        "parameters": {"type": "object", "properties": {"entity": {"type": "string"}}, "required": ["entity"]}}},
    {"type": "function", "function": {
        "name": "lookup", "description": "The next sentence containing the keyword in the last page searched.",
        "parameters": {"type": "object", "properties": {"keyword": {"type": "string"}}, "required": ["keyword"]}}},
    {"type": "function", "function": {
        "name": "finish", "description": "Give the final answer and end the task.",
        "parameters": {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}}},
]
SYSTEM = ("Answer the question. Use search and lookup to read Wikipedia, then call finish with a short answer.")
Chat = Callable[[list, list], tuple[dict, Usage]]  # (messages, tools) -> (assistant message, usage)


def local_chat(path: str | Path | None = None, max_tokens: int = 60) -> Chat:
    """Grammar-constrained tool calls on a local chat model (the bundled SmolLM2, or the GGUF file at `path`).

    llama.cpp samples under a grammar made from a JSON schema, so every reply is a well-formed call
    ``{"tool": "search" | "lookup" | "finish", "argument": "..."}``: the model cannot write anything else. Tool
    results go back as user turns; underneath, a tool message is only more text in the context. The model is the
    one `llm.from_spec` already loaded (one copy in memory), and its own chat template writes the turns.
    """
    from llama_cpp import LlamaGrammar  # optional and heavy: only this function needs it

    model = llm_mod.from_spec(f"local:{path}" if path else "local", cache=False).model
    schema = {"type": "object", "required": ["tool", "argument"],
              "properties": {"tool": {"enum": [t["function"]["name"] for t in TOOLS]},
                             "argument": {"type": "string", "maxLength": 120}}}
    grammar = LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)

    def as_text(m: dict, listing: str) -> dict:
        """One message as a plain chat turn: the model has no tool roles, so calls and results become text."""
        if m["role"] == "system":
            return {"role": "system", "content": f"{m['content']}\nTools:\n{listing}\nReply with one JSON tool call."}
        if m["role"] == "assistant":
            calls = m.get("tool_calls") or []
            return {"role": "assistant", "content": json.dumps({"tool": calls[0]["function"]["name"], "argument": next(
                iter(json.loads(calls[0]["function"]["arguments"]).values()), "")}) if calls else m["content"] or ""}
        return {"role": "user", "content": f"Observation: {m['content']}" if m["role"] == "tool" else m["content"]}

    def chat(messages, tools):
        listing = "\n".join(f"- {t['function']['name']}: {t['function']['description']}" for t in tools)
        r = model.create_chat_completion([as_text(m, listing) for m in messages], grammar=grammar, temperature=0.0,
                                         max_tokens=max_tokens)
        u, out = r["usage"], r["choices"][0]["message"]["content"] or ""
        try:
            call = json.loads(out)
            message = {"role": "assistant", "content": None, "tool_calls": [{"id": f"call{len(messages)}",
                       "type": "function", "function": {"name": call["tool"],
                                                        "arguments": json.dumps({"argument": call["argument"]})}}]}
        except (ValueError, KeyError):  # cut off by max_tokens before the JSON closed
            message = {"role": "assistant", "content": out}
        return message, Usage(u["prompt_tokens"], 0, u["completion_tokens"])
    return chat


def trained_chat(spec: str = "local:ft-react", max_tokens: int | None = None, llm=None) -> Chat:
    """A tool-calling API made the way a server makes one: a model trained on a format, and a parser.

    A hosted tool-calling model was fine-tuned to write calls in some text format, and the server parses that text
    into ``tool_calls``. Here the model is a fine-tuned adapter that learned ReAct's format (notebook 16), so the
    chat function writes the messages out as the zero-shot transcript it was trained on (``Question:``, then each
    call as ``Thought k`` and ``Action k``, each result as ``Observation k``), lets it write one step, and parses
    ``Action k: Name[argument]`` back into a structured call, with the thought as ``content``. A step with no
    action in it comes back as plain text: the model has left the loop.

    >>> from react_teach.llm import ScriptLLM
    >>> chat = trained_chat(llm=ScriptLLM([" I need to search Front Row.\\nAction 1: Search[Front Row]"]))
    >>> message, _ = chat([{"role": "user", "content": "What controls Front Row?"}], TOOLS)
    >>> message["content"], message["tool_calls"][0]["function"]
    ('I need to search Front Row.', {'name': 'search', 'arguments': '{"argument": "Front Row"}'})
    """
    model = llm if llm is not None else llm_mod.from_spec(spec)  # `llm`: any backend, e.g. a script in a test
    max_tokens = max_tokens or llm_mod.step_tokens(model)  # a step of the loop, so the loop's room

    def chat(messages, tools):
        question = next(m["content"] for m in messages if m["role"] == "user")
        text, k = f"Question: {question}\n", 0
        for m in messages:
            if m["role"] == "assistant" and m.get("tool_calls"):
                k += 1
                function = m["tool_calls"][0]["function"]
                arg = next(iter(json.loads(function["arguments"] or "{}").values()), "")
                text += f"Thought {k}: {m.get('content') or ''}\nAction {k}: {function['name'].capitalize()}[{arg}]\n"
            elif m["role"] == "tool":
                text += f"Observation {k}: {m['content']}\n"
        k += 1
        c = model.complete(text + f"Thought {k}:", stop=[f"\nObservation {k}:"], max_tokens=max_tokens)[0]
        thought, _, action = c.text.partition(f"\nAction {k}:")
        found = re.match(r"\s*(\w+)\[(.*)\]\s*$", action, re.DOTALL)
        if not found or found.group(1).lower() not in {t["function"]["name"] for t in tools}:
            return {"role": "assistant", "content": c.text.strip()}, c.usage
        call = {"id": f"call{len(messages)}", "type": "function",
                "function": {"name": found.group(1).lower(), "arguments": json.dumps({"argument": found.group(2)})}}
        return {"role": "assistant", "content": thought.strip(), "tool_calls": [call]}, c.usage
    return chat


def openai_chat(model: str, base_url: str | None = None, api_key: str | None = None, timeout: float = 120.0,
                max_tokens: int = 200) -> Chat:
    """OpenAI's tools API (or a compatible server's), on the same bounded SDK client as `OpenAILLM`: one deadline
    per turn, a capped answer, and OPENAI_API_KEY for api.openai.com only (a compatible server gets
    REACT_TEACH_COMPATIBLE_KEY, or no key)."""
    # the SDK takes most of a second to import, and only this function of the course's tools needs it
    import openai

    from react_teach.llm import remote

    key = remote.keys(base_url, api_key)
    client = remote.client(base_url or remote.OPENAI_URL, key)
    name = f"openai-compatible:{base_url}#{model}" if base_url else f"openai:{model}"

    def chat(messages, tools):
        with remote.limits(timeout, 65536 + max_tokens * remote.BODY_BYTES_PER_TOKEN):
            try:
                r = client.chat.completions.create(model=model, messages=messages, tools=tools, temperature=0.0,
                                                   max_tokens=max_tokens)
            except openai.OpenAIError as e:
                raise remote.translate(e, name, key, base_url, timeout) from None
        # The SDK builds its objects without checking them (servers differ): every field is checked here.
        choices = getattr(r, "choices", None)
        message = getattr(choices[0], "message", None) if isinstance(choices, list) and choices else None
        if not hasattr(message, "model_dump"):
            raise llm_mod.LLMError(f"{name}: the server answered 200 but not with a chat completion")
        u = getattr(r, "usage", None)
        return message.model_dump(exclude_none=True), Usage(_count(getattr(u, "prompt_tokens", 0)), 0,
                                                            _count(getattr(u, "completion_tokens", 0)))
    return chat


def _count(x) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) else 0


def tool_calling(question: str, chat: Chat, wiki, max_calls: int = 7) -> Trajectory:
    """The ReAct loop with structured calls: each tool call runs in the same `WikiEnv`, each result goes back as a
    ``tool`` message. A call the environment cannot run becomes an observation, as in text ReAct.

    It is not `react_teach.loop.Loop`: a chat turn returns a structured call, where the Loop continues a text
    transcript from a cue and cuts it at a stop. The environment and the trajectory are the same ones."""
    env = WikiEnv(wiki)
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]
    t = Trajectory(question, method="tool-calling")
    started = time.perf_counter()
    while len(t.steps) < max_calls and not env.done:
        message, usage = chat(messages, TOOLS)
        t.n_calls += 1
        t.usage = t.usage + usage
        calls = message.get("tool_calls") or []
        messages.append({"role": "assistant", "content": message.get("content"), "tool_calls": calls[:1]}
                        if calls else {"role": "assistant", "content": message.get("content") or ""})
        if not calls:  # plain text instead of a call: the model has left the loop
            t.steps.append(Step(message.get("content") or "", None, None))
            break
        call = calls[0]  # one call per turn, as one Action per step
        name = call["function"]["name"]
        try:
            args = json.loads(call["function"]["arguments"] or "{}")
            arg = str(next(iter(args.values()), ""))
        except (ValueError, AttributeError):
            arg = call["function"]["arguments"]
        action = f"{name}[{arg}]"
        obs, _ = env.step(action)
        t.steps.append(Step(message.get("content"), action, obs))
        messages.append({"role": "tool", "tool_call_id": call.get("id", name), "content": obs})
    t.answer = env.answer if env.done else ""
    t.extra["finished"] = env.done
    t.seconds = time.perf_counter() - started
    return t
