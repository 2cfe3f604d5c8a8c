"""What came after ReAct: native tool calling, fine-tuning data, and tools that are safe to hand a model.

Tool-calling APIs absorbed the loop: the model now returns a structured call instead of an ``Action i:`` line, and
the observation goes back as a ``tool`` message. The syntax changed; the loop did not.

    >>> calculate("2 * (3 + 4) ** 2")
    98
    >>> calculate("__import__('os').system('ls')")
    Traceback (most recent call last):
    ...
    ValueError: the calculator accepts numbers and + - * / // % ** ( ) only, not Call
"""
from __future__ import annotations

import ast
import json
import operator
import re
import time
from pathlib import Path
from typing import Callable

from . import llm as llm_mod
from .llm import Usage
from .score import exact_match
from .trajectory import Step, Trajectory, parse
from .wiki import WikiEnv

# ---------------------------------------------------------------------------------------------- tool calling
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


def openai_chat(model: str, base_url: str | None = None, api_key: str | None = None, timeout: float = 120.0,
                max_tokens: int = 200) -> Chat:
    """OpenAI's tools API (or a compatible server's), on the same bounded SDK client as `OpenAILLM`: one deadline
    per turn, a capped answer, and OPENAI_API_KEY for api.openai.com only (a compatible server gets
    REACT_TEACH_COMPATIBLE_KEY, or no key)."""
    import openai

    from . import remote

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
        if not getattr(r, "choices", None):
            raise llm_mod.LLMError(f"{name}: the server answered 200 but not with a chat completion")
        u = r.usage
        return r.choices[0].message.model_dump(exclude_none=True), Usage(getattr(u, "prompt_tokens", 0) or 0, 0,
                                                                         getattr(u, "completion_tokens", 0) or 0)
    return chat


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


# ------------------------------------------------------------------------------------------ fine-tuning data
FT_SYSTEM = "Answer the question with interleaving Thought, Action, Observation steps."


def to_chat(t: Trajectory) -> dict:
    """One trajectory as a chat-format training example: the model's turns are Thought+Action, the environment's
    turns are Observations (the paper bootstrapped 3,000 correct trajectories this way, STaR-style)."""
    messages = [{"role": "system", "content": FT_SYSTEM}, {"role": "user", "content": t.header}]
    for i, s in enumerate(t.steps, 1):
        messages.append({"role": "assistant", "content": f"Thought {i}: {s.thought}\nAction {i}: {s.action}"})
        if s.observation is not None and i < len(t.steps):
            messages.append({"role": "user", "content": f"Observation {i}: {s.observation}"})
    return {"messages": messages}


def export_finetune(trajectories, path: str | Path, golds: dict[str, str] | None = None) -> int:
    """Write the finished trajectories (the correct ones, when `golds` maps questions to answers) as JSONL."""
    keep = [t for t in trajectories if t.answer and t.steps and all(s.thought and s.action for s in t.steps)
            and (golds is None or exact_match(t.answer, golds.get(t.question, "")))]
    Path(path).write_text("".join(json.dumps(to_chat(t), ensure_ascii=False) + "\n" for t in keep), encoding="utf-8")
    return len(keep)


def validate_finetune(path: str | Path) -> list[str]:
    """Every problem with a chat-format JSONL file; an empty list means it is valid."""
    problems = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        try:
            messages = json.loads(line)["messages"]
        except (ValueError, KeyError, TypeError):
            problems.append(f"line {n}: not an object with a messages list")
            continue
        roles = [m.get("role") for m in messages]
        if roles[:2] != ["system", "user"] or roles[-1] != "assistant":
            problems.append(f"line {n}: must start system, user and end with assistant")
        for k, m in enumerate(messages[2:], 2):
            want = "assistant" if k % 2 == 0 else "user"
            step = k // 2
            if m.get("role") != want:
                problems.append(f"line {n}: message {k} should be {want}")
            elif want == "assistant" and not re.fullmatch(rf"Thought {step}: .+\nAction {step}: \w+\[.*\]",
                                                          m.get("content", ""), re.DOTALL):
                problems.append(f"line {n}: message {k} is not 'Thought {step}: ...\\nAction {step}: ...'")
            elif want == "user" and not m.get("content", "").startswith(f"Observation {step}: "):
                problems.append(f"line {n}: message {k} is not 'Observation {step}: ...'")
        if not re.search(r"Action \d+: Finish\[.+\]$", messages[-1].get("content", "")):
            problems.append(f"line {n}: the last turn must Finish[...] with an answer")
    return problems


def from_chat(example: dict) -> Trajectory:
    """Back from a training example to a trajectory (the validator's round trip)."""
    text = "\n".join(m["content"] for m in example["messages"][1:])
    return parse(text)


# ----------------------------------------------------------------------------------------------- safe tools
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
        ast.USub: operator.neg, ast.UAdd: operator.pos}
MAX_INPUT, MAX_EXPONENT, MAX_MAGNITUDE = 200, 100, 10 ** 100


def calculate(expression: str):
    """Arithmetic on numbers, and nothing else: no names, no attributes, no calls, no imports.

    An agent's tool gets text the model wrote, and the model's input may come from a web page an attacker wrote.
    ``eval`` on that text runs any Python it contains; this walks the syntax tree and allows only arithmetic.
    """
    if len(expression) > MAX_INPUT:
        raise ValueError(f"the expression is {len(expression)} characters long; the limit is {MAX_INPUT}")
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        raise ValueError(f"not an arithmetic expression: {expression!r}") from None

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return node.value
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.operand))
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > MAX_EXPONENT:
                raise ValueError(f"exponent {right} is too large (the limit is {MAX_EXPONENT})")
            try:
                value = _OPS[type(node.op)](left, right)
            except ZeroDivisionError:
                raise ValueError("division by zero") from None
            except OverflowError:  # 1e200 ** 2 no longer fits a float
                raise ValueError("the result is too large") from None
            # (-8) ** 0.5 is complex, 1e308 * 10 is inf: not answers a reader can check
            if not isinstance(value, (int, float)) or value != value or abs(value) > MAX_MAGNITUDE:
                raise ValueError("the result is too large" if isinstance(value, (int, float)) and value == value
                                 else "the result is not a real number")
            return value
        raise ValueError(f"the calculator accepts numbers and + - * / // % ** ( ) only, not {type(node).__name__}")

    return ev(tree)


def calculator_tool(action: str) -> str:
    """``calculate[2+2]`` as an environment would answer it: a result or an error, always a string."""
    m = re.fullmatch(r"calculate\[(.*)\]", action.strip(), re.DOTALL)
    if not m:
        return f"Invalid action: {action}"
    try:
        return str(calculate(m.group(1)))
    except ValueError as e:
        return f"Calculator error: {e}"
