#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# man-pages.py [--list] OUTDIR: the man pages of the rdmachan tool, made
# from Documentation/tool.rst, its one source, with docutils' manpage
# writer (rst2man's): rdmachan(8) and one rdmachan-OBJECT(8) per object.
# "make man" runs it into man/; "make install" installs what it wrote.
# --list prints the pages it would write, one a line, and writes none.
#
# How tool.rst is read (Documentation/tool.rst says it to its editors):
#
# * A section of tool.rst (a title underlined with "=") that documents
#   commands, as definition list items whose term begins
#   ``rdmachan [-OPTIONS] OBJECT ...``, is OBJECT's page: its terms are
#   the SYNOPSIS, the section the DESCRIPTION.  Its commands must all be
#   of the one object.  So a section added for a new object gets its
#   page with no change here; the name line of the page comes from the
#   object's row in the overview table ("what"), else the section title.
# * The text before the first section (less a leading ".. note::") is
#   the DESCRIPTION of rdmachan(8); the sections that are no object's
#   ("Options", "Examples") follow it there under their titles.
# * A link to a section by its title (`Channel options`_) brings that
#   section into a page that does not hold it; a link to an object's
#   section becomes rdmachan-OBJECT(8).  :doc:`name` becomes
#   Documentation/name.rst.
#
# A warning of docutils is an error: a page that does not build fails
# the build.  Only the Python standard library and docutils
# (python3-docutils, scripts/deps.sh) are needed.

import os
import re
import sys

from docutils import nodes
from docutils.core import publish_string
from docutils.parsers.rst import roles
from docutils.writers import manpage

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join('Documentation', 'tool.rst')
# the name line of rdmachan(8)
SUMMARY = 'RDMA message, block and network channels'
ADORN = '=-~^'                          # a page's section levels, 1 first
TERM = re.compile(r'^``rdmachan\s+(.*?)``\s*$')
LINK = re.compile(r'`([^`<>]+?)`_(?![_\w])')
UNDERLINE = re.compile(r'^([=\-~^"\'`#*+.:])\1{2,}\s*$')


def die(msg):
    sys.exit('%s: %s' % (os.path.basename(sys.argv[0]), msg))


def norm(title):
    return ' '.join(title.split()).lower()


def doc_role(name, rawtext, text, lineno, inliner, options=None,
             content=None):
    """:doc:`name` (Sphinx's): the file, as a literal"""
    m = re.match(r'^.*<(.+)>$', text, re.S)
    target = (m.group(1) if m else text).strip()
    return [nodes.literal(rawtext, 'Documentation/%s.rst' % target)], []


def roff(text):
    """text as a roff text line"""
    text = text.replace('\\', '\\e').replace('-', '\\-')
    return '\\&' + text if text[:1] in ".'" else text


class Section:
    """a titled part of tool.rst: its level (1 for "="), its lines
    (without the title) up to the next title of any level, and the
    sections below it"""

    def __init__(self, title, level, start):
        self.title, self.level, self.start = title, level, start
        self.lines = []
        self.children = []
        self.obj = None

    def all_lines(self, base):
        """this section's text and its subsections', their titles
        adorned for a page where this one is at level base"""
        out = list(self.lines)
        for c in self.children:
            out += title_lines(c.title, c.level - self.level + base)
            out += c.all_lines(base + c.level - self.level)
        return out

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


def title_lines(title, level):
    if level > len(ADORN):
        die('"%s": sections nested too deep' % title)
    return ['', title, ADORN[level - 1] * len(title), '']


def parse(lines):
    """the preamble's lines and the top-level sections of tool.rst"""
    # the document title: overlined and underlined
    i = 0
    while i < len(lines) and not UNDERLINE.match(lines[i]):
        i += 1
    if i + 2 >= len(lines) or not UNDERLINE.match(lines[i + 2]):
        die('%s: no document title' % SOURCE)
    i += 3
    chars = []                          # adornment characters by level
    preamble, top, stack = [], [], []
    for j in range(i, len(lines)):
        line = lines[j]
        if (j + 1 < len(lines) and UNDERLINE.match(lines[j + 1]) and
                line.strip() and not line[0].isspace() and
                (j == 0 or not lines[j - 1].strip()) and
                len(lines[j + 1].rstrip()) >= len(line.rstrip()) and
                not UNDERLINE.match(line)):
            c = lines[j + 1][0]
            if c not in chars:
                chars.append(c)
            s = Section(line.strip(), chars.index(c) + 1, j)
            while stack and stack[-1].level >= s.level:
                stack.pop()
            if stack:
                stack[-1].children.append(s)
            elif s.level == 1:
                top.append(s)
            else:
                die('%s:%d: "%s" is below no section' % (SOURCE, j + 1, s.title))
            stack.append(s)
            continue
        if j > 0 and stack and stack[-1].start == j - 1:
            continue                    # the underline
        (stack[-1].lines if stack else preamble).append(line)
    return preamble, top


def term_object(term):
    """OBJECT of a command's term: the first word after rdmachan and its
    options ("[-j [-p]]", "-j")"""
    for word in term.split():
        if word[0] in '[-]':
            continue
        return word if re.match(r'^[a-z]+$', word) else None
    return None


def terms(sec):
    """the commands' terms of a section and its subsections: a line
    ``rdmachan ...`` at the left margin whose next line is indented"""
    out = []
    for s in sec.walk():
        for k, line in enumerate(s.lines):
            m = TERM.match(line)
            if (m and k + 1 < len(s.lines) and s.lines[k + 1][:1].isspace()
                    and s.lines[k + 1].strip()):
                out.append(m.group(1))
    return out


def overview(preamble):
    """OBJECT -> its "what" in the overview table of the preamble (the
    simple table whose first column is "object")"""
    what = {}
    borders = [k for k, line in enumerate(preamble)
               if re.match(r'^=+( +=+)+\s*$', line)]
    for a, b, c in zip(borders, borders[1:], borders[2:]):
        if preamble[a + 1].split()[:1] != ['object']:
            continue
        cols = [m.span() for m in re.finditer(r'=+', preamble[a])]
        obj = None
        for row in preamble[b + 1:c]:
            cells = [row[x:y if n < len(cols) - 1 else None].strip()
                     for n, (x, y) in enumerate(cols)]
            if cells[0]:
                m = re.match(r'^``(\w+)``$', cells[0])
                obj = m.group(1) if m else None
                if obj:
                    what[obj] = cells[-1]
            elif obj and cells[-1]:
                what[obj] += ' ' + cells[-1]
        break
    return {o: re.sub(r'``|\*', '', w) for o, w in what.items()}


def drop_note(lines):
    """the lines less a leading ".. note::" block"""
    k = 0
    while k < len(lines) and not lines[k].strip():
        k += 1
    if k < len(lines) and lines[k].startswith('.. note::'):
        k += 1
        while k < len(lines) and (not lines[k].strip() or lines[k][0].isspace()):
            k += 1
    return lines[k:]


class Pages:
    def __init__(self, text, version):
        self.version = version
        self.preamble, self.top = parse(text.split('\n'))
        self.what = overview(self.preamble)
        self.objects = {}               # OBJECT -> its section, in order
        self.shared = []                # the top-level sections of no object
        self.by_title = {}
        for sec in self.top:
            objs = {term_object(t) for t in terms(sec)}
            if None in objs:
                die('%s: "%s": a command term names no object' % (SOURCE, sec.title))
            if len(objs) > 1:
                die('%s: "%s" documents the commands of %s: one object a '
                    'section' % (SOURCE, sec.title, ', '.join(sorted(objs))))
            if objs:
                sec.obj = objs.pop()
                if sec.obj in self.objects:
                    die('%s: "%s": %s has a section already' %
                        (SOURCE, sec.title, sec.obj))
                self.objects[sec.obj] = sec
            else:
                self.shared.append(sec)
            for s in sec.walk():
                self.by_title[norm(s.title)] = (s, sec)

    def names(self):
        return ['rdmachan'] + ['rdmachan-' + o for o in self.objects]

    def links(self, body, page_secs):
        """body with its links resolved for a page holding page_secs;
        the sections it brings in"""
        extra = []

        def repl(m):
            key = norm(m.group(1))
            if key not in self.by_title:
                return m.group(0)       # not a section: docutils decides
            s, top = self.by_title[key]
            if top.obj and s is top:
                if top in page_secs:
                    return m.group(1)   # this page's own section
                return '**rdmachan-%s**\\ (8)' % top.obj
            if not any(s in p.walk() for p in page_secs) and s not in extra:
                extra.append(s)
            return m.group(0)
        # a link's words may be split across lines
        text = LINK.sub(repl, '\n'.join(body))
        return text.split('\n'), extra

    def page(self, name, summary, synopsis, body, secs, trailer):
        head = [name, summary]
        out = ['=' * len(head[0]), head[0], '=' * len(head[0]), '',
               '-' * len(head[1]), head[1], '-' * len(head[1]), '',
               ':Manual section: 8',
               ':Manual group: rdmachan',
               ':Version: rdmachan %s' % self.version, '']
        # synopsis: what follows "rdmachan" in each form, .SY's hanging
        # indent for the forms longer than a line
        out += title_lines('SYNOPSIS', 1) + ['.. raw:: manpage', '']
        for s in synopsis:
            out += ['   .SY rdmachan', '   ' + roff(s), '   .YS']
        out.append('')
        out += title_lines('DESCRIPTION', 1)
        body, extra = self.links(body, secs)
        out += body
        while extra:
            s = extra.pop(0)
            text, more = self.links(s.all_lines(1), secs + [s])
            out += title_lines(s.title, 1) + text
            secs.append(s)
            extra += [x for x in more if x not in extra]
        out += trailer
        see = ['**%s**\\ (8)' % n for n in self.names() if n != name]
        out += title_lines('SEE ALSO', 1) + [', '.join(see)]
        return '\n'.join(out) + '\n'

    def main_page(self):
        body = drop_note(self.preamble)
        # the lines "rdmachan ..." of its first literal block
        grammar, block = [], False
        for line in body:
            if block and line.strip() and not line[0].isspace():
                break
            if block and re.match(r'^\s+rdmachan\b', line):
                grammar.append(line.strip())
            block = block or line.rstrip().endswith('::')
        synopsis = [g.split(None, 1)[1] for g in grammar] or ['...']
        trailer = []
        secs = list(self.shared)
        for s in self.shared:
            text, _ = self.links(s.all_lines(1), secs)
            trailer += title_lines(s.title, 1) + text
        return self.page('rdmachan', SUMMARY, synopsis, body, secs, trailer)

    def object_page(self, obj):
        sec = self.objects[obj]
        synopsis = [t for t in terms(sec) if term_object(t) == obj]
        title = sec.title
        if not title[:2].isupper():
            title = title[0].lower() + title[1:]
        return self.page('rdmachan-' + obj, self.what.get(obj, title),
                         synopsis, sec.all_lines(1), [sec], [])


class TagTable(manpage.Table):
    """a table as a tagged paragraph a row (.TP), its first column the
    tag: tbl(1)'s boxes break at nroff's page breaks ("character above
    first line discarded"), and its columns get narrow in a nested list"""

    def as_list(self):
        out = []
        for row in self._rows:
            cells = [c for c in row if isinstance(c, list)]
            for c in cells:
                self._minimize_cell(c)
            if not cells:
                continue
            text = [''.join(c) for c in cells]
            tag = ' '.join(x.strip() for x in text[0].split('\n')
                           if x.strip() and not x.startswith('.'))
            out += ['.TP\n', (tag or '\\&') + '\n']
            out.append('.br\n'.join(t if t.endswith('\n') else t + '\n'
                                    for t in text[1:] if t.strip()))
        # back to the paragraph's margin
        if out:
            out.append('.PP\n')
        return out


class Translator(manpage.Translator):
    """the manpage writer's, with TagTable, and a place to break a long
    inline literal (JSON) after each comma, so that groff need not
    overrun the line"""

    def visit_Text(self, node):
        start = len(self.body)
        super().visit_Text(node)
        if isinstance(node.parent, nodes.literal):
            self.body[start:] = [t.replace(',', ',\\:')
                                 for t in self.body[start:]]

    def visit_table(self, node):
        super().visit_table(node)
        self._active_table = TagTable()


class Writer(manpage.Writer):
    def __init__(self):
        super().__init__()
        self.translator_class = Translator


def render(rst, name):
    try:
        out = publish_string(rst, writer=Writer(), settings_overrides={
            'report_level': 2, 'halt_level': 2, 'input_encoding': 'utf-8',
            'output_encoding': 'utf-8', 'traceback': True,
            '_disable_config': True})
    except Exception as e:          # docutils' SystemMessage among them
        die('%s(8) from %s: %s' % (name, SOURCE, e))
    out = out.decode('utf-8')
    note = ('.\\" Generated from %s by scripts/man-pages.py: '
            'do not edit.\n' % SOURCE)
    # ragged right and not hyphenated, as git's pages: a line of one
    # long literal cannot be justified ("cannot adjust line")
    # (HY: .YS turns hyphenation on again)
    out = re.sub(r"^(\.TH .*\n)", r"\1.ad l\n.nr HY 0\n.nh\n", out, count=1,
                 flags=re.M)
    # tbl(1) for a table (none now: TagTable), as man(1) reads it from
    # the first line
    return ("'\\\" t\n" if '\n.TS' in out else '') + note + out


def main(argv):
    listing = argv[1:2] == ['--list']
    if listing:
        argv = argv[1:]
    if len(argv) != 2:
        sys.exit('usage: %s [--list] OUTDIR' % argv[0])
    outdir = argv[1]
    with open(os.path.join(TOP, SOURCE), encoding='utf-8') as f:
        text = f.read()
    with open(os.path.join(TOP, 'VERSION'), encoding='utf-8') as f:
        version = f.read().strip()
    pages = Pages(text, version)
    if listing:
        for n in pages.names():
            print(os.path.join(outdir, n + '.8'))
        return
    roles.register_local_role('doc', doc_role)
    made = {'rdmachan': pages.main_page()}
    for o in pages.objects:
        made['rdmachan-' + o] = pages.object_page(o)
    os.makedirs(outdir, exist_ok=True)
    # the pages of objects gone from tool.rst go too
    for f in os.listdir(outdir):
        if f.endswith('.8') and f[:-2] not in made:
            os.remove(os.path.join(outdir, f))
    for n, rst in made.items():
        troff = render(rst, n)
        path = os.path.join(outdir, n + '.8')
        with open(path + '.tmp', 'w', encoding='utf-8') as f:
            f.write(troff)
        os.replace(path + '.tmp', path)


if __name__ == '__main__':
    main(sys.argv)
