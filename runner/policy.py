"""Compile-time policy: which Python a program may use, and the rewrite that guards it.

The program is parsed (the parser NFKC-normalises identifiers, so `__ｃｌａｓｓ__` *is*
`__class__` here), checked against an allow-list of node types and identifier rules, then
rewritten so that every attribute read, write and import goes through a run-time guard in
`runner.guards`. Checks run on the AST, never on the source text. This layer gives clear
errors; the process boundary in `runner.sandbox` is the real wall (see docs/sandbox.md).

Example:
    >>> code = compile_program("x = (1).real\\n", "main.py")
    >>> validate(ast.parse("import os\\n"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    SecurityError: line 1: import of 'os' is not allowed (gradstep runs torch, numpy, ...)
"""
from __future__ import annotations

import ast

from gradstep.engine._served import SERVED
from gradstep.engine.unsupported import upstream_module
from gradstep.runner.errors import LimitExceeded, ProgramTooLarge, SecurityError

# Importable modules: the exact dotted names a program may name in `import` / `from`.
ALLOWED_MODULES = frozenset({
    *SERVED, "engine",
    "numpy", "numpy.random", "numpy.linalg", "math", "random", "inspect", "collections", "copy",
    "matplotlib", "matplotlib.pyplot",
    # standard modules behind the same guards (runner/stdlib_modules.py lists their names)
    "warnings", "time", "itertools", "functools", "operator", "typing", "dataclasses", "string",
    "statistics", "enum", "abc", "re",
})

# Builtins that do not exist in the sandbox. Loading one is refused with a clear message unless
# the program binds that name itself (`input = torch.randn(3)` is a PyTorch docs idiom).
BANNED_NAMES = frozenset({
    "eval", "exec", "compile", "open", "globals", "locals", "vars", "dir", "object",
    "breakpoint", "input", "help", "memoryview", "exit", "quit", "bytearray", "BaseException",
    "SystemExit", "KeyboardInterrupt", "GeneratorExit", "copyright", "credits", "license",
    "classmethod",
})

# getattr-style builtins: a literal attribute name is checked here, a computed one when the
# call runs (runner.guards.Sandbox.getattr), by the same rule (attribute_refusal).
NAMED_ATTR_BUILTINS = frozenset({"getattr", "hasattr", "setattr", "delattr"})

# Dunder names a class body may define as methods (all still run guarded code): the
# constructor, printing, containers, comparisons and arithmetic, which Python calls only with
# the program's own values. Never the hooks that run at the sandbox's own steps: attribute
# access, `__exit__`, copying and pickling (`__reduce__`), numpy's protocols
# (`__array_interface__` is raw memory), class creation, descriptors, `__del__`, `__format__`.
ALLOWED_DUNDER_METHODS = frozenset("""
    __init__ __repr__ __str__ __len__ __getitem__ __setitem__ __delitem__ __contains__
    __iter__ __call__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__ __bool__ __neg__
    __pos__ __abs__ __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__
    __rtruediv__ __floordiv__ __rfloordiv__ __mod__ __rmod__ __pow__ __rpow__ __matmul__
    __rmatmul__ __float__ __int__
""".split())

# Attribute names starting with "_" that are PyTorch-visible: the run-time guard further checks
# the object's type (`_saved_*` only on graph nodes, `_version` and `_base` only on tensors,
# `__version__` only on the torch and numpy proxies, whose version string a notebook prints).
# A sparse gradient's parts are read with PyTorch's underscored methods (`g._indices()`,
# `g._values()`, `g._nnz()`); the guard hands them out on engine tensors only.
SPARSE_TENSOR_METHODS = frozenset({"_indices", "_values", "_nnz"})
ALLOWED_UNDERSCORE_ATTRS = frozenset({"__name__", "__init__", "__class__", "_version", "_base",
                                      "__version__"}) | SPARSE_TENSOR_METHODS
SAVED_PREFIX = "_saved_"

# Attributes that lead to frames, code and interpreter internals on any object
# (RestrictedPython's INSPECT_ATTRIBUTES, plus str.format_map and type.mro).
INSPECT_ATTRS = frozenset({
    "tb_frame", "tb_next", "tb_lasti", "tb_lineno", "f_back", "f_builtins", "f_code",
    "f_globals", "f_locals", "f_trace", "f_lasti", "f_generator", "co_code", "co_consts",
    "co_names", "gi_frame", "gi_code", "gi_running", "gi_yieldfrom", "gi_suspended",
    "cr_frame", "cr_code", "cr_await", "cr_origin", "cr_running", "ag_frame", "ag_code",
    "ag_await", "ag_running", "format_map", "mro",
})

RESERVED_PREFIX = "_sbx"     # the guard hooks' names in the program's globals

_ALLOWED_NODES = tuple(getattr(ast, name) for name in """
    Module Expr Assign AugAssign AnnAssign For While If Break Continue Pass FunctionDef
    ClassDef Return With withitem Import ImportFrom alias Try ExceptHandler Raise Assert Delete
    Global Nonlocal Lambda arguments arg keyword IfExp BoolOp BinOp UnaryOp Compare Call
    Attribute Subscript Slice Starred Name Constant List Tuple Set Dict ListComp SetComp
    DictComp GeneratorExp comprehension JoinedStr FormattedValue NamedExpr Load Store Del
    And Or Add Sub Mult MatMult Div Mod Pow LShift RShift BitOr BitXor BitAnd FloorDiv
    Invert Not UAdd USub Eq NotEq Lt LtE Gt GtE Is IsNot In NotIn
""".split())

_REFUSED_NODES = {
    "Yield": "generators (yield) are not allowed",
    "YieldFrom": "generators (yield) are not allowed",
    "Await": "async code is not allowed",
    "AsyncFunctionDef": "async code is not allowed",
    "AsyncFor": "async code is not allowed",
    "AsyncWith": "async code is not allowed",
    "Match": "match statements are not allowed",
    "TryStar": "except* is not allowed",
}

_CLASS_BODY = (ast.FunctionDef, ast.Assign, ast.AnnAssign, ast.Expr, ast.Pass, ast.ClassDef)
_IMPORT_HINT = ("gradstep runs torch, numpy, math, random, collections, copy, itertools, "
                "functools, re and a few more standard modules only")
# the main ones of ALLOWED_MODULES' torch submodules, for the message below
_TORCH_SERVED = "torch.nn, torch.nn.functional, torch.optim, torch.autograd, torch.linalg, " \
                "torch.utils.data, torch.func, torch.distributions"


def _refuse_import(node, dotted: str):
    # a torch submodule that PyTorch has (torch.signal, torch.fft, and what is inside one
    # gradstep lacks: torch.distributions.gamma) is not a hostile import: say it
    # is missing here
    parts = dotted.split(".")
    prefixes = (".".join(parts[:k]) for k in range(2, len(parts) + 1))
    if any(p not in ALLOWED_MODULES and upstream_module(p) for p in prefixes):
        _refuse(node, f"import of {dotted!r}: PyTorch has it, gradstep does not implement it "
                      f"(it has torch, {_TORCH_SERVED})")
    _refuse(node, f"import of {dotted!r} is not allowed ({_IMPORT_HINT})")


def _refuse(node, message: str):
    line = getattr(node, "lineno", None)
    error = SecurityError(f"line {line}: {message}" if line else message)
    error.line = line
    raise error


def _check_identifier(node, name: str, what: str = "names"):
    if name.startswith(RESERVED_PREFIX):
        _refuse(node, f"names starting with {RESERVED_PREFIX!r} are reserved: {name!r}")
    if name.startswith("__"):
        _refuse(node, f'{what} starting with "__" are not allowed: {name!r}')


def _bound_names(tree) -> set[str]:
    """Every name the program binds anywhere (assignments, parameters, defs, imports)."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound


def validate(tree: ast.Module) -> None:
    """Raise SecurityError naming the line of the first construct the sandbox refuses.

    `ast.walk` is iterative, so a deeply nested (hostile) tree cannot overflow the stack here.
    """
    bound = _bound_names(tree)
    methods = {id(stmt) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
               for stmt in node.body if isinstance(stmt, ast.FunctionDef)}
    for node in ast.walk(tree):
        kind = type(node).__name__
        if kind in _REFUSED_NODES:
            _refuse(node, _REFUSED_NODES[kind])
        if not isinstance(node, _ALLOWED_NODES):
            _refuse(node, f"{kind} is not allowed in gradstep programs")
        _check_node(node, bound, methods)


def _check_node(node, bound: set, methods: set) -> None:
    if isinstance(node, ast.Name):
        if node.id == "__name__" and isinstance(node.ctx, ast.Load):
            return
        _check_identifier(node, node.id)
        if isinstance(node.ctx, ast.Load) and node.id in BANNED_NAMES and node.id not in bound:
            _refuse(node, f"{node.id!r} is not available in the sandbox")
    elif isinstance(node, ast.Attribute):
        _check_attribute(node)
    elif isinstance(node, ast.arg):
        _check_identifier(node, node.arg, "parameter names")
    elif isinstance(node, ast.keyword):
        if node.arg is not None:
            _check_identifier(node, node.arg, "keyword names")
    elif isinstance(node, ast.FunctionDef):
        if not (id(node) in methods and node.name in ALLOWED_DUNDER_METHODS):
            _check_identifier(node, node.name, "function names")
    elif isinstance(node, ast.ClassDef):
        _check_class(node)
    elif isinstance(node, (ast.Global, ast.Nonlocal)):
        for name in node.names:
            _check_identifier(node, name)
    elif isinstance(node, ast.ExceptHandler):
        if node.name:
            _check_identifier(node, node.name)
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        _check_import(node)
    elif isinstance(node, ast.Call):
        _check_call(node, bound)


def attribute_refusal(attr: str, load: bool = True) -> str | None:
    """Why the attribute name `attr` may not be read (or, load=False, written), or None.

    The one rule for `a.b` in the source and for `getattr(a, name)` / `setattr` /
    `hasattr` with a name computed at run time (runner.guards)."""
    if attr in INSPECT_ATTRS:
        return f"access to attribute {attr!r} is not allowed"
    if not attr.startswith("_"):
        return None
    if attr.startswith(SAVED_PREFIX) and not attr.endswith("__"):
        return None
    if attr in ALLOWED_UNDERSCORE_ATTRS:
        return None if load else f"assignment to attribute {attr!r} is not allowed"
    return f'attributes starting with "_" are not allowed: {attr!r}'


def _check_attribute(node: ast.Attribute) -> None:
    why = attribute_refusal(node.attr, isinstance(node.ctx, ast.Load))
    if why:
        _refuse(node, why)


def _check_class(node: ast.ClassDef) -> None:
    _check_identifier(node, node.name, "class names")
    if node.keywords:
        _refuse(node, "class keywords (metaclass=...) are not allowed")
    for base in node.bases:
        if isinstance(base, ast.Starred):
            _refuse(node, "starred base classes are not allowed")
    for stmt in node.body:
        if not isinstance(stmt, _CLASS_BODY):
            _refuse(stmt, f"{type(stmt).__name__} is not allowed in a class body")


def _check_import(node) -> None:
    if isinstance(node, ast.ImportFrom):
        if node.level:
            _refuse(node, "relative imports are not allowed")
        if node.module not in ALLOWED_MODULES:
            _refuse_import(node, node.module)
        for alias in node.names:
            if alias.name == "*":
                _refuse(node, "'from ... import *' is not allowed; import names explicitly")
            _check_identifier(node, alias.name)
            if alias.name.startswith("_"):
                _refuse(node, f"importing private name {alias.name!r} is not allowed")
            if alias.asname:
                _check_identifier(node, alias.asname)
        return
    for alias in node.names:
        if alias.name not in ALLOWED_MODULES:
            _refuse_import(node, alias.name)
        if alias.asname:
            _check_identifier(node, alias.asname)


def _check_call(node: ast.Call, bound: set) -> None:
    func = node.func
    if isinstance(func, ast.Name) and func.id in NAMED_ATTR_BUILTINS and func.id not in bound:
        if len(node.args) >= 2 and (isinstance(node.args[1], ast.Constant)
                                    and isinstance(node.args[1].value, str)):
            ctx = ast.Load() if func.id in ("getattr", "hasattr") else ast.Store()
            _check_attribute(ast.Attribute(value=node.args[0], attr=node.args[1].value,
                                           ctx=ctx, lineno=node.lineno))


class _Rewriter(ast.NodeTransformer):
    """Route attribute access and imports through the guards of `runner.guards`.

    a.b          -> _sbx_ga(a, "b")
    a.b = v      -> _sbx_w(a)["b"] = v          (works in every target position)
    a.b op= v    -> _sbx_aug(a, "b", "Op", v)
    del a.b      -> _sbx_del(a, "b")
    import x     -> x = _sbx_import("x")        from x import y -> y = _sbx_from("x", "y")
    except:      -> except Exception:
    class C(B):  -> class C(_sbx_base(B)):
    """

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Store):
            writer = _call("_sbx_w", [node.value], node)
            return ast.copy_location(
                ast.Subscript(value=writer, slice=_const(node.attr, node), ctx=ast.Store()),
                node)
        return _call("_sbx_ga", [node.value, _const(node.attr, node)], node)

    def visit_AugAssign(self, node):
        if not isinstance(node.target, ast.Attribute):
            return self.generic_visit(node)
        target = node.target
        obj, value = self.visit(target.value), self.visit(node.value)
        op = type(node.op).__name__
        call = _call("_sbx_aug", [obj, _const(target.attr, node), _const(op, node), value], node)
        return ast.copy_location(ast.Expr(value=call), node)

    def visit_Delete(self, node):
        # `del a.b, c[0]` deletes left to right: one statement per target, in order
        out: list[ast.stmt] = []
        plain: list[ast.expr] = []
        for target in node.targets:
            target = self.visit(target)
            if isinstance(target, ast.Call) and target.func.id == "_sbx_ga":    # was a.b
                if plain:
                    out.append(ast.copy_location(ast.Delete(targets=plain), node))
                    plain = []
                out.append(ast.copy_location(ast.Expr(value=_call("_sbx_del", target.args,
                                                                  node)), node))
            else:
                plain.append(target)
        if plain:
            out.append(ast.copy_location(ast.Delete(targets=plain), node))
        return out

    def visit_Import(self, node):
        out = []
        for alias in node.names:
            if alias.asname:
                target, module = alias.asname, alias.name
            else:       # `import torch.nn` binds `torch`
                target = module = alias.name.split(".")[0]
            out.append(_assign(target, _call("_sbx_import", [_const(module, node)], node), node))
        return out

    def visit_ImportFrom(self, node):
        return [_assign(alias.asname or alias.name,
                        _call("_sbx_from", [_const(node.module, node),
                                            _const(alias.name, node)], node), node)
                for alias in node.names]

    def visit_ExceptHandler(self, node):
        self.generic_visit(node)
        if node.type is None:
            node.type = ast.copy_location(ast.Name(id="Exception", ctx=ast.Load()), node)
        return node

    def visit_ClassDef(self, node):
        self.generic_visit(node)
        node.bases = [_call("_sbx_base", [base], base) for base in node.bases]
        return node


def _const(value, where):
    return ast.copy_location(ast.Constant(value=value), where)


def _call(name, args, where):
    func = ast.copy_location(ast.Name(id=name, ctx=ast.Load()), where)
    return ast.copy_location(ast.Call(func=func, args=list(args), keywords=[]), where)


def _assign(name, value, where):
    target = ast.copy_location(ast.Name(id=name, ctx=ast.Store()), where)
    return ast.copy_location(ast.Assign(targets=[target], value=value), where)


def check_source(source: str, max_bytes: int) -> None:
    """Refuse sources that are too large or not plain text, before parsing anything."""
    size = len(source.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise LimitExceeded("source", f"the program is {size} bytes; the source limit is "
                                      f"{max_bytes} bytes")
    if "\x00" in source:
        raise SecurityError("the program contains a NUL byte")
    try:
        source.encode("utf-8")
    except UnicodeEncodeError:
        raise SecurityError("the program is not valid UTF-8 text") from None


def compile_program(source: str, filename: str, max_bytes: int = 64 * 1024):
    """Parse, validate, rewrite and compile `source`; returns a code object.

    Raises SyntaxError as Python would, SecurityError for refused constructs, and
    ProgramTooLarge when the program is too big or too deeply nested for the compiler.
    `filename` is used verbatim so tracebacks and the recorder see the user's name.
    """
    check_source(source, max_bytes)
    if source.startswith("\ufeff"):     # a UTF-8 byte order mark: CPython skips it in a file
        source = source[1:]
    try:
        tree = ast.parse(source, filename=filename)
        validate(tree)
        tree = ast.fix_missing_locations(_Rewriter().visit(tree))
        return compile(tree, filename, "exec", dont_inherit=True)
    except (RecursionError, MemoryError):
        raise ProgramTooLarge("the program is too deeply nested to compile") from None
