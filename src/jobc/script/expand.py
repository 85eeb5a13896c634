"""Words and assignments: what each word of a command expands to, and what each assignment sets,
as far as the script itself says (`jobc.script.values` holds the values' segments)."""

from __future__ import annotations

import re

from jobc.core.diagnostics import Span
from jobc.core.lazyre import lazy
from jobc.core.numbers import ascii_int
from jobc.script import values as _values
from jobc.script.facts import Expansion, Export, Word
from jobc.script.tree import Positions, argument_nodes, descendants
from jobc.script.unevaluated import leading_options
from jobc.script.variables import CWD, UNSET, Variables, file_name, file_name_as_written
from jobc.tables.ranks import RUNTIME_NAME

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

_NAME_START = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_SPECIAL_WORD = lazy(r"[\\*?\[]")
_NAME = lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")
# `$NAME`, `${NAME}`, `${NAME:-default}`: a value that only reads one variable
# a value written for the reader to replace (`HF_TOKEN="<your HuggingFace token>"`): prose in
# angle brackets, with a blank in it, is no value of the script's; its words would split where the
# real value does not
_PLACEHOLDER = lazy(r"<[A-Za-z][^<>$|]*\s[^<>$|]*>")
# the job's nodes counted from its node list: `$(scontrol show hostnames "$SLURM_JOB_NODELIST" | wc -l)`
_NODE_COUNT = lazy(
    r"(?:\$\(|`) *scontrol show hostnames? +\"?\$\{?SLURM_(?:JOB_)?NODELIST\}?\"? *\| *wc -l *(?:\)|`)"
)
_READS_ONE = lazy(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=])[^}]*)?\}?$")
# `cd "$SLURM_SUBMIT_DIR"`: back where the job started
_SUBMIT_DIR = lazy(r'"?\$\{?SLURM_SUBMIT_DIR\}?"?')
# a heredoc's quotes are text to the shell that expands it: blanked out, what is left reads as bash
# expands it
_QUOTES = str.maketrans("'\"", "  ")
_MAX_FIELDS = 1024  # words one expansion may give and still be followed
_MAX_INDEX = 1 << 16  # `A[N]=x` past this is not followed (it would allocate N empty elements)


class Expander:
    """Expands the words of one script against its variables, and records what assignments set."""

    def __init__(self, pos: Positions, state: Variables, may_expand: re.Pattern[bytes]) -> None:
        self.pos = pos
        self.state = state
        self.facts = pos.facts
        self.may_expand = may_expand  # bytes that may hold a per-rank variable
        # inside a step's own shell: what it expands is the step's (recorded where the step's
        # text was read), not the batch shell's
        self.in_step = 0
        self.unknown_dirs = 0
        # the heredocs the batch shell wrote files from (`cat > run.sh <<EOF`), by the file's
        # name: a step that runs the file reads what the batch shell expanded when it wrote it
        self.written: dict[str, tuple[_values.Src, Any]] = {}
        # what a written file's heredoc gave once read (read once: its expansions are recorded once)
        self.read_written: dict[str, tuple[Span, str] | None] = {}

    def declaration(self, src: _values.Src, node: Any) -> None:
        keyword = node.children[0].type if node.children else ""
        if keyword == "local" and len(self.state.frames) == 1:
            # bash refuses `local` outside a function (`local: can only be used in a function`)
            # and sets nothing
            self.batch_expansions(src, node)
            return
        options = set(leading_options([self.pos.text(c, src) for c in node.children[1:]]))
        # `export -n`, `declare +x`: the names lose their export (an assignment still sets them)
        unexport = any(o.startswith("-") and "n" in o and "f" not in o for o in options)
        unexport = keyword == "export" and unexport
        unexport = unexport or any(o.startswith("+") and "x" in o for o in options)
        exported = keyword == "export" or any(o.startswith("-") and "x" in o for o in options)
        exported = exported and not unexport
        associative = any(o.startswith("-") and "A" in o for o in options)
        for child in node.named_children:
            if unexport and child.type in ("variable_assignment", "variable_name"):
                named = child.child_by_field_name("name") if child.type == "variable_assignment" else child
                if child.type == "variable_assignment":
                    self.assignment(src, child, exported=False)
                if named is not None:
                    self.state.unexport(self.pos.text(named, src))
                continue
            if child.type == "variable_assignment":
                self.assignment(src, child, exported=exported)
                if associative:
                    name = child.child_by_field_name("name")
                    if name is not None:
                        self.state.setvar(self.pos.text(name, src), None)
            elif child.type == "variable_name":
                name = self.pos.text(child, src)
                if exported:
                    self.state.export(name)
                    for i, old in enumerate(self.facts.exports if not self.in_step else ()):
                        if old.name == name and not old.exported:
                            self.facts.exports[i] = Export(
                                old.name, old.value, old.raw, old.span, old.value_span, True
                            )
                elif keyword in ("local", "declare", "typeset") and name not in self.state.vars:
                    self.state.setvar(name, ((),) if not associative else None)
            elif child.type == "word" and exported and not self.in_step:
                self._refused_name(src, child, options)
        self.batch_expansions(src, node)

    def _refused_name(self, src: _values.Src, word: Any, options: set[str]) -> None:
        """`export A=1 --gpus-per-node=8`: a word after the options that is no name, which bash
        refuses (`not a valid identifier`) while it exports the others; kept as an export of that
        name, which the refused-value check (JC809) names and nothing carries."""
        before = word.prev_sibling
        if before is not None and before.end_byte == word.start_byte:
            return  # the grammar's piece of the word before it (`A=$X/data/`): one word to bash
        text = self.pos.text(word, src)
        if text in options or not text:
            return
        name, eq, value = text.partition("=")
        where = self.pos.where(word, src)
        self.facts.exports.append(Export(name, value if eq else None, value, where, where, True))

    def assignment(self, src: _values.Src, node: Any, *, exported: bool) -> None:
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None:
            return
        name = self.pos.text(name_node, src)
        index: str | None = None
        if name_node.type == "subscript":
            var = name_node.child_by_field_name("name")
            idx = name_node.child_by_field_name("index")
            index = self.pos.text(idx, src) if idx is not None else None
            name = self.pos.text(var, src) if var is not None else name
        append = any(c.type == "+=" for c in node.children)
        value: _values.Value | None
        if value_node is None:
            value = ((),)
            fld: _values.Field = ()
            raw = ""
            value_span = Span.point(node.end_point[0] + 1, self.pos.col(*node.end_point))
        elif value_node.type == "array":
            # a `# …` inside the parentheses is a comment, not an element
            value = tuple(
                f for c in value_node.named_children if c.type != "comment" for f in self.fields(src, c)
            )
            fld = _values.join(list(value))
            raw = self.pos.text(value_node, src)
            value_span = self.pos.span(value_node, src)
        else:
            got = self.fields(src, value_node, assigned=True)
            # several fields come only from `"${A[@]}"` or `"$@"`: an assignment joins them with
            # blanks, as `"${A[*]}"` would (`CMD="torchrun ${ARGS[@]} x.py"` is one string)
            fld = _values.join(got, " ") if got else ()
            value = (fld,)
            raw = self.pos.text(value_node, src)
            value_span = self.word_of(fld, value_node, src).span
            if _values.literal(fld) and _PLACEHOLDER.fullmatch(_values.text(fld)):
                value = None  # the value is the reader's to write: not known
        old = self.state.vars.get(name, ((),))
        if index is not None:
            at = ascii_int(index)
            if old is None or at is None or at > _MAX_INDEX or value is None:
                value = None  # an index no array of a script reaches is not followed
            else:
                elements = list(old)
                while len(elements) <= at:
                    elements.append(())
                elements[at] = value[0] if value else ()
                value = tuple(elements)
        elif append and old is not None and value is not None:
            if value_node is not None and value_node.type == "array":
                value = old + value
            else:
                first = old[0] if old else ()
                value = (first + (value[0] if value else ()), *old[1:])
        elif append:
            value = None
        if value is not None and _values.size(value) > _values.MAX_VALUE:
            value = None
        reads: str | None = None
        if value is not None and len(value) == 1 and value[0] and not any(seg[3] for seg in value[0]):
            # nothing of it is known (`$(scontrol …)`): an unknown variable, shown by its name
            if len(value[0]) == 1 and not self.in_step and self.state.depth == 0 and index is None:
                reads = value[0][0][0]
                if _NODE_COUNT.fullmatch(reads):
                    # the job's hosts counted: its nodes (`$(scontrol show hostnames … | wc -l)`)
                    reads = "$SLURM_JOB_NUM_NODES"
                # `N=${SLURM_GPUS_ON_NODE:-…}; N=${N:-1}`: N still reads what it read
                inner = _READS_ONE.match(reads)
                if inner is not None and inner.group(1) in self.state.reads:
                    reads = self.state.reads[inner.group(1)]
            value = None
        self.state.setvar(name, value)
        if reads is not None and not append:
            self.state.reads[name] = reads
        if exported or self.state.allexport:
            self.state.export(name)
        # `export NAME=` (no value at all) is the empty string, as `NAME=""` is: the program sees it set
        single = value is not None and len(value) == 1 and (value_node is None or value_node.type != "array")
        literal = single and value is not None and _values.literal(value[0])
        text = _values.text(value[0]) if literal and value is not None else None
        if not self.in_step:  # the batch shell's: a step's own shell exports to its program only
            # `export NAME` before `NAME=…` (or `set -a`) exports what a plain assignment sets too
            shared = exported or name in self.state.exported
            self.facts.exports.append(Export(name, text, raw, self.pos.span(node, src), value_span, shared))
        del fld
        self.batch_expansions(src, node)

    def batch_expansions(self, src: _values.Src, node: Any) -> None:
        if not self.in_step and self.may_expand.search(bytes(node.text)):
            self.facts.expansions.extend(self.pos.expansions(node, "batch", src))

    def word_of(self, f: _values.Field, node: Any, src: _values.Src) -> Word:
        """A word for one field of ``node``: as written when it is the node's own text, else
        placed where its parts were written."""
        literal = _values.literal(f)
        a, b = node.start_byte, node.end_byte
        if (
            src is self.pos.src
            and all(a <= s[1] and s[2] <= b for s in f if s[1] >= 0)
            and any(s[1] >= 0 for s in f)
        ):
            raw = self.pos.text(node)
            if literal:
                return Word(_values.text(f), self.pos.span(node), True, raw, node, f)
            return Word(raw, self.pos.span(node), False, raw, node, f)
        text = _values.text(f)
        where = _values.place(f)
        span = self.pos.offsets(*where) if where is not None else self.pos.where(node, src)
        return Word(text, span, literal, text, node, f, True)

    def words(self, src: _values.Src, nodes: list[Any]) -> list[Word]:
        out: list[Word] = []
        skip = 0
        for k, node in enumerate(nodes):
            if skip:
                skip -= 1
                continue
            glued = self._glued(src, None, node, nodes[k + 1]) if k + 1 < len(nodes) else None
            if glued is not None:
                skip = 1
                # `--export=ALL,A=$A,B=$B,C=$C`: the grammar cuts the word at every other `$NAME`
                while k + skip + 1 < len(nodes):
                    more = self._glued(src, glued, nodes[k + skip], nodes[k + skip + 1])
                    if more is None:
                        break
                    glued, skip = more, skip + 1
                out.extend(self.word_of(f, node, src) for f in glued if f)
                continue
            n = _continued(src, nodes, k)
            if n:
                # `--container-mounts=\<newline>$A,\<newline>$B`: the grammar ends a word at a
                # `\`-newline inside it; bash removes the pair and reads one word
                joined: list[_values.Field] = []
                for part in nodes[k : k + n + 1]:
                    got = self.fields(src, part)
                    if joined and got:
                        joined[-1] = joined[-1] + got[0]
                        joined.extend(got[1:])
                    else:
                        joined.extend(got)
                out.extend(self._joined_words(src, joined, node, nodes[k + n]))
                skip = n
                continue
            if node.type == "word" and src is self.pos.src and not _SPECIAL_WORD.search(self.pos.text(node)):
                # the common case (options, file names, numbers): the text is the word
                raw = self.pos.text(node)
                seg = (raw, node.start_byte, node.end_byte, True)
                out.append(Word(raw, self.pos.span(node), True, raw, node, (seg,)))
                continue
            out.extend(self.word_of(f, node, src) for f in self.fields(src, node))
        return out

    def _joined_words(
        self, src: _values.Src, joined: list[_values.Field], first: Any, last: Any
    ) -> list[Word]:
        """The words of nodes bash reads as one: as the script wrote them when nothing comes
        between the nodes (a backquoted substitution glued to text), else placed by their parts."""
        a, b = first.start_byte, last.end_byte
        if src is self.pos.src and len(joined) == 1 and b"\\\n" not in src.raw[a:b]:
            raw = src.raw[a:b].decode("utf-8", "surrogateescape")
            literal = _values.literal(joined[0])
            text = _values.text(joined[0]) if literal else raw
            return [Word(text, self.pos.offsets(a, b), literal, raw, first, joined[0])]
        return [self.word_of(f, first, src) for f in joined]

    def _glued(
        self, src: _values.Src, head: list[_values.Field] | None, node: Any, nxt: Any
    ) -> list[_values.Field] | None:
        """The grammar ends an unquoted word at its second `$NAME` when text comes between the
        two (`a.$X.b-$Y.out` reads as `a.$X.b-$` and a word `Y.out`, `a=$A,b=$B,c=$C` as
        `a=$A,b=$` and `B,c=$C`): bash reads one word, with `$Y` expanded. The fields of that
        word (after ``head``, the fields of ``node`` when it was glued already); None for any
        other pair of nodes."""
        last = node.children[-1] if node.type == "concatenation" and node.children else None
        if last is None or last.is_named or last.type != "$":
            return None
        if nxt.start_byte != node.end_byte:
            return None
        first = nxt if nxt.type == "word" else None
        if nxt.type == "concatenation" and nxt.children and nxt.children[0].type == "word":
            first = nxt.children[0]
        if first is None:
            return None
        name = _NAME_START.match(self.pos.text(first, src))
        if name is None:
            return None
        cut = nxt.start_byte + name.end()
        value = self.state.lookup(name.group(0), None)
        if value is None or value is UNSET:
            where = src.range(last.start_byte, cut)
            a, b = where if where is not None else (-1, -1)
            part: list[_values.Field] = [_values.unknown("$" + name.group(0), a, b)]
        else:
            part = _edges(value)
        out = list(head) if head is not None else self.fields(src, node)
        tail: list[_values.Field] = [tuple(_values.word_segs(src, cut, first.end_byte))]
        for child in nxt.children[1:] if first is not nxt else ():
            # the rest of the concatenation, as `fields` reads one (its trailing `$` left out)
            got = [] if not child.is_named and child.type in ("$", "`") else self.fields(src, child)
            if got:
                tail[-1] = tail[-1] + got[0]
                tail.extend(got[1:])
        for piece in (part, tail):
            if out and piece:
                out[-1] = out[-1] + piece[0]
                out.extend(piece[1:])
            else:
                out.extend(piece)
        return out

    def fields(
        self,
        src: _values.Src,
        node: Any,
        *,
        quoted: bool = False,
        assigned: bool = False,
        glued: bool = False,
    ) -> list[_values.Field]:
        """The fields ``node`` expands to (an assignment's value is not split). ``glued``: node is
        part of a concatenation, whose text after (before) a value that ends (begins) with a blank
        starts a new word; an empty field marks where (see ``_values.split_edges``)."""
        kind = node.type
        a, b = node.start_byte, node.end_byte
        if kind in ("word", "number", "$"):
            return [tuple(_values.word_segs(src, a, b))]
        if kind == "raw_string":
            return [tuple(src.segs(a + 1, b - 1))]
        if kind == "string":
            return self._string(src, node)
        if kind in ("simple_expansion", "expansion"):
            got = self._parameter(src, node, quoted=quoted)
            if not (quoted or assigned):
                got = _edges(got) if glued else [piece for f in got for piece in _values.split(f)]
            if len(got) > _MAX_FIELDS:
                # thousands of words from one expansion are no launch line: not followed
                return [self._unknown(src, node)]
            self.state.spent += 64 * len(got)
            return got
        if kind == "concatenation":
            out: list[_values.Field] = []
            for child in node.children:
                if not child.is_named:
                    if child.type == "`" or (child.type == "$" and not _literal_dollar(src, node, child)):
                        continue
                    part: list[_values.Field] = [
                        tuple(_values.word_segs(src, child.start_byte, child.end_byte))
                    ]
                else:
                    part = self.fields(src, child, quoted=quoted, assigned=assigned, glued=True)
                if not part:
                    continue
                if out:
                    out[-1] = out[-1] + part[0]
                    out.extend(part[1:])
                else:
                    out.extend(part)
            return [f for f in out if f]
        if kind == "command_substitution":
            heredoc = self._cat_heredoc(src, node)
            if heredoc is not None:
                return [heredoc]
            here = self._pwd(src, node)
            if here is not None:
                return [here]
        return [self._unknown(src, node)]

    def _pwd(self, src: _values.Src, node: Any) -> _values.Field | None:
        """`$(pwd)` and `` `pwd` ``: the shell's directory when the walk knows it, `.` for the one
        the job started in (a program at `$(pwd)/x.py` is x.py where the job runs)."""
        inner = [c for c in node.named_children if c.type != "comment"]
        if (
            len(inner) != 1
            or inner[0].type != "command"
            or self.pos.text(inner[0], src).strip()
            not in (
                "pwd",
                "pwd -L",
                "pwd -P",
            )
        ):
            return None
        value = self.state.vars.get(CWD, UNSET)
        if value is None:
            return None
        if value is UNSET:
            where = src.range(node.start_byte, node.end_byte)
            a, b = where if where is not None else (-1, -1)
            return ((".", a, b, True),)
        return tuple(value[0]) if value else None

    def somewhere(self, raw: str) -> _values.Value:
        """A directory not known before the job runs (`cd "$WORK/code"`), as a value of its own:
        `$(pwd)` after it is that directory, so a program at `$(pwd)/x.py` is x.py where the step
        runs, when the step runs there too."""
        self.unknown_dirs += 1
        at = -1000 - self.unknown_dirs  # no byte of any script: tells this directory from another
        return (((raw, at, at, False),),)

    def directory(self, words: list[Word]) -> _values.Value | None:
        """Where `cd WORDS` goes, as the value of the shell's directory: an absolute path, a path
        relative to where the job started, `.` for `cd "$SLURM_SUBMIT_DIR"`; None when it is not
        known before the job runs (a computed path, `cd -`, `cd ~`, `cd` alone)."""
        args = [w for w in words if not (w.text.startswith("-") and w.text != "-")]
        if len(args) != 1:
            return self.somewhere(" ".join(w.raw for w in words) or "~")
        word = args[0]
        f = tuple(word.segs) if word.segs is not None else ((word.text, -1, -1, word.literal),)
        if _SUBMIT_DIR.fullmatch(word.raw):
            return ((((".", f[0][1], f[-1][2], True) if f else (".", -1, -1, True)),),)
        if not word.literal or not word.text or word.text in ("-",) or word.text.startswith("~"):
            return self.somewhere(word.raw)
        if word.text.startswith("/"):
            return (f,)
        current = self.state.vars.get(CWD, UNSET)
        if current is None or (current is not UNSET and not current):
            return self.somewhere(word.raw)
        if current is UNSET or _values.text(current[0]) == ".":
            return (f,)  # relative to where the job started, as the spec's workdir is
        return (_values.join([current[0], f], "/"),)

    def _unknown(self, src: _values.Src, node: Any) -> _values.Field:
        seg = src.unknown_at(node.start_byte, node.end_byte)
        if seg is not None and node.type == "word":
            return (seg,)
        where = src.range(node.start_byte, node.end_byte)
        a, b = where if where is not None else (-1, -1)
        return _values.unknown(self.pos.text(node, src), a, b)

    def _string(self, src: _values.Src, node: Any) -> list[_values.Field]:
        """A double-quoted string: one field, or one per element for `"$@"` and `"${A[@]}"`."""
        out: list[_values.Field] = [()]
        children = node.children
        pos = node.start_byte + 1  # past the opening quote
        for i, child in enumerate(children):
            kind = child.type
            if child.start_byte > pos and not (kind == '"' and i == 0):
                # the grammar leaves some bytes in no child (a line break before an expansion,
                # or at the string's start): they are the string's text all the same
                out = out or [()]
                out[-1] = out[-1] + tuple(_values.dq_segs(src, pos, child.start_byte))
            pos = max(pos, child.end_byte)
            if kind == '"' and i in (0, len(children) - 1):
                continue
            raw = src.raw[child.start_byte : child.end_byte] if kind != "string_content" else b""
            if raw[:1].isspace() and (lead := child.end_byte - len(raw.lstrip())) > child.start_byte:
                # the grammar counts the blanks between two expansions (`"$A $B"`, `"$A ${B}"`)
                # into the second one's `$`: they are the string's text all the same
                out = out or [()]
                out[-1] = out[-1] + tuple(_values.dq_segs(src, child.start_byte, lead))
            if kind == "string_content":
                out[-1] = out[-1] + tuple(_values.dq_segs(src, child.start_byte, child.end_byte))
            elif kind in ("simple_expansion", "expansion"):
                got = self._parameter(src, child, quoted=True)
                if not got:
                    if len(out) == 1 and not out[0] and _array_all(child):
                        out = []  # "${A[@]}" of an empty array: no field at all
                    continue
                if not out:
                    out = [()]
                out[-1] = out[-1] + got[0]
                out.extend(got[1:])
            elif kind == "command_substitution":
                heredoc = self._cat_heredoc(src, child)
                if heredoc is None:
                    heredoc = self._pwd(src, child)
                piece = heredoc if heredoc is not None else self._unknown(src, child)
                out[-1] = out[-1] + piece
            elif child.is_named:
                out[-1] = out[-1] + self._unknown(src, child)
            else:
                out[-1] = out[-1] + tuple(src.segs(child.start_byte, child.end_byte))
        return out

    def _parameter(self, src: _values.Src, node: Any, *, quoted: bool) -> list[_values.Field]:
        """`$NAME`, `${NAME}`, `${NAME:-default}`, `${A[@]}`, `$1`, `"$@"`: the fields it gives."""
        name = ""
        index: str | None = None
        op = ""
        operand: list[Any] = []
        length = False
        children = node.children
        for i, child in enumerate(children):
            kind = child.type
            if kind in ("variable_name", "special_variable_name") and not name:
                name = self.pos.text(child, src)
            elif kind == "subscript":
                var = child.child_by_field_name("name")
                idx = child.child_by_field_name("index")
                name = self.pos.text(var, src) if var is not None else ""
                index = self.pos.text(idx, src) if idx is not None else None
            elif kind == "#" and i == 1:
                length = True
            elif not child.is_named and kind not in ("$", "${", "}") and name and not op:
                op = kind
            elif child.is_named and name and op:
                operand.append(child)
            elif child.is_named and name and not op:
                op = "?"  # an operation the grammar names differently: not followed
        if not name or length or (op and not _values.is_default(op) and op not in (":+", "+")):
            return [self._unknown(src, node)]
        value = self.state.lookup(name, index)
        if op:
            set_ = value is not None and value is not UNSET
            empty = set_ and all(not f for f in value)
            if _values.is_default(op):
                if value is UNSET and not _values.environment_name(name):
                    got = self._operand(src, operand, quoted)
                    if op in (":=", "="):
                        self.state.setvar(name, (_values.join(got, " "),) if got else ((),))
                    return got
                if set_ and empty and op.startswith(":"):
                    return self._operand(src, operand, quoted)
            elif op in (":+", "+"):
                if value is UNSET or (empty and op == ":+"):
                    return [()] if quoted else []
                if set_:
                    return self._operand(src, operand, quoted)
        if value is None or value is UNSET:
            return [self._unknown(src, node)]
        assert isinstance(value, tuple)
        self.state.spent += _values.size(value)
        if self.state.spent > self.state.allowance:
            # values copied into words past a multiple of the script's size: not followed further
            return [self._unknown(src, node)]
        if index in ("*",) or (name == "*" and index is None):
            return [_values.join(list(value))] if quoted else list(value)
        return list(value)

    def _operand(self, src: _values.Src, operand: list[Any], quoted: bool) -> list[_values.Field]:
        out: list[_values.Field] = []
        for child in operand:
            got = self.fields(src, child, quoted=quoted, assigned=quoted)
            if out and got:
                out[-1] = out[-1] + got[0]
                out.extend(got[1:])
            else:
                out.extend(got)
        return out or [()]

    def _cat_heredoc(self, src: _values.Src, node: Any) -> _values.Field | None:
        """`$(cat <<EOF … EOF)`: the heredoc's text, trailing newlines removed as `$(…)` does."""
        inner = [c for c in node.named_children if c.type != "comment"]
        if len(inner) != 1 or inner[0].type != "redirected_statement":
            return None
        body = inner[0].child_by_field_name("body") or inner[0].named_children[0]
        if body.type != "command" or self.pos.text(body, src).strip() != "cat":
            return None
        field = self._heredoc(src, inner[0])
        if field is None:
            return None
        while field and field[-1][3] and field[-1][0].endswith("\n"):
            last = field[-1]
            stripped = last[0].rstrip("\n")
            field = field[:-1] + ((_values._slice(last, 0, len(stripped)),) if stripped else ())
        return field

    def _heredoc(self, src: _values.Src, redirected: Any) -> _values.Field | None:
        for child in redirected.named_children:
            if child.type != "heredoc_redirect":
                continue
            start = next((c for c in child.named_children if c.type == "heredoc_start"), None)
            body = next((c for c in child.named_children if c.type == "heredoc_body"), None)
            if body is None:
                return ()
            quoted = start is not None and self.pos.text(start, src)[:1] in ("'", '"', "\\")
            if quoted:
                return tuple(src.segs(body.start_byte, body.end_byte))
            out: _values.Field = ()
            pos = body.start_byte
            for part in body.named_children:
                if part.type == "heredoc_content":
                    continue
                out += tuple(_values.dq_segs(src, pos, part.start_byte))
                if part.type in ("simple_expansion", "expansion"):
                    got = self._parameter(src, part, quoted=True)
                    out += _values.join(got) if got else ()
                else:
                    out += self._unknown(src, part)
                pos = part.end_byte
            out += tuple(_values.dq_segs(src, pos, body.end_byte))
            return out
        return None

    def heredoc_expansions(self, src: _values.Src, redirected: Any) -> tuple[Span, str] | None:
        """An unquoted heredoc given as standard input (`<<EOF`, not `<<'EOF'`): its per-rank
        expansions, recorded as the batch shell's (it expands the body once, before the command
        reads it; quotes are text there and do not stop it, a `\\$` does), and the body with its
        quotes blanked out, where it was written. None for a quoted heredoc or none at all."""
        for child in redirected.named_children:
            if child.type != "heredoc_redirect" or self.pos.text(child, src)[:1] != "<":
                continue
            start = next((c for c in child.named_children if c.type == "heredoc_start"), None)
            body = next((c for c in child.named_children if c.type == "heredoc_body"), None)
            if body is None or start is None or self.pos.text(start, src)[:1] in ("'", '"', "\\"):
                return None
            for part in body.named_children:
                text = self.pos.text(part, src)
                if part.type == "command_substitution" and text.startswith("$(("):
                    # the grammar reads `$((…))` in a heredoc as a subshell: arithmetic all the same
                    span = self.pos.span(part, src)
                    self.facts.expansions += [
                        Expansion(m.group(1), span, "batch") for m in RUNTIME_NAME.finditer(text)
                    ]
                elif part.type != "heredoc_content":
                    self.facts.expansions.extend(self.pos.expansions(part, "batch", src))
            body_text = self.pos.text(body, src).translate(_QUOTES)
            return self.pos.span(body, src), body_text
        return None

    def stdin_heredoc(self, src: _values.Src, redirected: Any) -> _values.Field | None:
        """The heredoc a command reads as its standard input (`bash <<EOF … EOF`), as it expands
        when the line runs; None without one (or one given another descriptor, `3<<EOF`)."""
        for child in redirected.named_children:
            if child.type == "heredoc_redirect" and self.pos.text(child, src)[:1] == "<":
                text = self._heredoc(src, redirected)
                return text if text is not None and _values.size((text,)) <= _values.MAX_VALUE else None
        return None

    def write_heredoc(self, src: _values.Src, command: Any, redirected: Any) -> None:
        """`cat > run.sh <<EOF … EOF` (or `cat <<EOF > run.sh`): the file's text, as the heredoc
        expands it when the line runs, for a step that runs the file later (`srun bash run.sh`)."""
        if self.pos.text(command, src).strip() != "cat":
            return
        target = next(
            (
                d
                for d in descendants(redirected)
                if d.type == "file_redirect" and d.children and d.children[0].type in (">", ">|")
            ),
            None,
        )
        destination = target.named_children[-1] if target is not None and target.named_children else None
        if destination is None:
            return
        words = self.words(src, [destination])
        if len(words) != 1 or not words[0].text:
            return
        # a file under a variable's directory (`cat > $wd/run.sh`) is kept by its words as written
        name = file_name(words[0].text) if words[0].literal else file_name_as_written(words[0].raw)
        if name is None:
            return
        text = self._heredoc(src, redirected)
        if text is not None and _values.size((text,)) <= _values.MAX_VALUE:
            self.state.setvar(name, (text,))
            self.written[name] = (src, redirected)
            self.read_written.pop(name, None)

    def written_heredoc(self, name: str) -> tuple[Span, str] | None:
        """The heredoc a written file (`cat > run.sh <<EOF`) came from, as `heredoc_expansions`
        reads it, for a step that runs the file; its expansions recorded the first time."""
        if name not in self.read_written:
            written = self.written.get(name)
            self.read_written[name] = self.heredoc_expansions(*written) if written is not None else None
        return self.read_written[name]

    def read_heredoc(self, src: _values.Src, command: Any, redirected: Any) -> bool:
        """`read -r -d '' NAME <<EOF … EOF`: NAME holds the heredoc's text, as read leaves it: up to
        the delimiter (`-d ''`: the whole text; none: the first line), the blanks at both ends taken
        off (IFS's, unless `IFS=` clears it). What else read does to it (backslashes without `-r`,
        another IFS, `-n`, an array) leaves NAME unknown."""
        arguments = argument_nodes(command)
        if not arguments or self.pos.text(arguments[0], src) != "read":
            return False
        words = [self.pos.text(a, src) for a in arguments[1:]]
        names = [n for n in words if not n.startswith("-") and _NAME.match(n)]
        if not names:
            return False
        field = self._heredoc(src, redirected)
        if field is None:
            return False
        value = _read_value(field, words, self._ifs(src, command))
        self.state.setvar(names[-1], (value,) if len(names) == 1 and value is not None else None)
        return True

    def _ifs(self, src: _values.Src, command: Any) -> str | None:
        """IFS as read sees it: `IFS= read …` empties it; None when the script changed it otherwise."""
        for child in command.named_children:
            if child.type == "variable_assignment":
                name, _, value = self.pos.text(child, src).partition("=")
                if name == "IFS":
                    return "" if value in ("", "''", '""') else None
        return " \t\n" if "IFS" not in self.state.vars else None


def _read_value(field: _values.Field, words: list[str], ifs: str | None) -> _values.Field | None:
    """What `read` with these options and IFS leaves in its one variable of ``field``'s text."""
    options = [w for w in words if w.startswith("-") and w != "-"]
    letters = "".join(w[1:] for w in options)
    if ifs is None or "r" not in letters or set(letters) - set("rsd") or letters.count("d") > 1:
        return None
    text = _values.text(field)
    if "d" in letters:
        after = words[words.index(next(w for w in options if "d" in w)) + 1 :]
        if not options[-1].endswith("d") or not after or after[0] not in ("''", '""'):
            return None  # a delimiter other than NUL (`-d ''`), or one glued to the option
        end = len(text)
    else:
        end = text.find("\n") if "\n" in text else len(text)
    blank = [c for c in ifs if c in " \t\n"]
    start = 0
    while start < end and text[start] in blank:
        start += 1
    while end > start and text[end - 1] in blank:
        end -= 1
    return _values.cut(field, start, end)


def _continued(src: _values.Src, nodes: list[Any], k: int) -> int:
    """How many of the nodes after ``nodes[k]`` belong to its word: each one that follows the
    one before with only `\\`-newlines between them, or with nothing between them where the next
    starts with a backquoted command substitution (the grammar cuts a word before a backquote
    that text follows, `--a` and the rest of `--a<backquoted b>c`): no blank, one word to bash."""
    n = 0
    while k + n + 1 < len(nodes):
        nxt = nodes[k + n + 1]
        gap = src.raw[nodes[k + n].end_byte : nxt.start_byte]
        if gap.replace(b"\\\n", b"") != b"" or (not gap and not _backquoted(nxt)):
            break
        n += 1
    return n


def _backquoted(node: Any) -> bool:
    """Whether ``node`` starts with a backquoted command substitution (alone, or text after it)."""
    first = node.children[0] if node.type == "concatenation" and node.children else node
    return first.type == "command_substitution" and bytes(first.text).startswith(b"`")


def _array_all(node: Any) -> bool:
    raw = bytes(node.text)
    return raw in (b"$@", b"${@}") or raw.endswith(b"[@]}")


def _edges(value: _values.Value | list[_values.Field]) -> list[_values.Field]:
    """The fields of an unquoted value glued to text, with where its blanks start a new word
    (an array's elements are words apart already: only the value's two ends matter)."""
    if len(value) == 1:
        return _values.split_edges(value[0])
    pieces = [_values.split_edges(f) for f in value]
    head: list[_values.Field] = [()] if pieces and pieces[0][:1] == [()] else []
    tail: list[_values.Field] = [()] if pieces and pieces[-1][-1:] == [()] else []
    return head + [p for got in pieces for p in got if p] + tail


def _literal_dollar(src: _values.Src, node: Any, child: Any) -> bool:
    """Whether a `$` the grammar left as a token of its own ends the word (`a$`, `!$`): bash
    keeps it as text there. A `$` a word is glued onto (`a.$X.b-$` and `Y.out`, read by
    `_glued`) or that quotes a string after it (`$"…"`) is not text."""
    if child is not node.children[-1]:
        return False
    after = src.raw[child.end_byte : child.end_byte + 1]
    return after in (b"", b" ", b"\t", b"\n", b";", b"&", b"|", b")", b"<", b">")
