# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The forms of an HTML page, and its error messages, with the standard library only.

Enough of HTML for the login, one-time-code, consent and auto-submit pages of identity
providers: no scripts are run, so a page that needs JavaScript to log in cannot be read.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

try:
    from html.parser import HTMLParser
except ImportError:  # pragma: no cover - Python 2 is not supported
    from HTMLParser import HTMLParser  # type: ignore

ERROR_CLASS = re.compile(r'(^|[\s_-])(error|errors|errornote|alert|danger|invalid|warning|feedback)($|[\s_-])', re.I)
VOID = frozenset(('input', 'br', 'img', 'meta', 'link', 'hr', 'area', 'base', 'col', 'embed', 'source', 'wbr'))
HIDDEN_TYPES = frozenset(('hidden',))
BUTTON_TYPES = frozenset(('submit', 'image'))
SKIPPED_TYPES = frozenset(('reset', 'button', 'file'))


class Field:
    """One input, select, textarea or submit button of a form."""

    def __init__(self, tag, attrs):
        self.tag = tag
        self.attrs = attrs
        self.name = attrs.get('name') or ''
        kind = (attrs.get('type') or ('submit' if tag == 'button' else 'text')).lower()
        self.type = 'select' if tag == 'select' else kind
        self.value = attrs.get('value') or ''
        self.text = ''
        self.disabled = 'disabled' in attrs

    @property
    def is_button(self):
        return self.type in BUTTON_TYPES

    @property
    def is_visible_input(self):
        return not self.is_button and self.type not in HIDDEN_TYPES and self.type not in SKIPPED_TYPES

    def option(self, value, selected):
        """An option of this select: the selected one (else the first) is its value."""
        if selected or not self.value:
            self.value = value

    def read(self, text):
        """Text inside this button or textarea."""
        self.text += text

    def ended(self):
        """A textarea's end: its text is its value."""
        self.value = self.text

    def describes(self, pattern):
        """Does the name, id, label-ish attributes or text match ``pattern``?"""
        words = ' '.join([self.name, self.attrs.get('id') or '', self.attrs.get('autocomplete') or '',
                          self.attrs.get('placeholder') or '', self.attrs.get('aria-label') or '',
                          self.value if self.is_button else '', self.text])
        return bool(re.search(pattern, words, re.I))


class Form:
    def __init__(self, attrs):
        self.action = attrs.get('action') or ''
        self.method = (attrs.get('method') or 'get').strip().upper()
        self.fields = []

    def visible(self):
        return [f for f in self.fields if f.is_visible_input and not f.disabled]

    def buttons(self):
        return [f for f in self.fields if f.is_button and not f.disabled]

    def password_fields(self):
        return [f for f in self.visible() if f.type == 'password']

    def data(self, values=None, button=None):
        """Name/value pairs to submit: every field (hidden ones kept) with ``values`` filled in."""
        values = values or {}
        pairs = []
        for field in self.fields:
            if not field.name or field.disabled or field.is_button or field.type in SKIPPED_TYPES:
                continue
            if field.type in ('checkbox', 'radio') and 'checked' not in field.attrs:
                continue
            pairs.append((field.name, values.get(field.name, field.value)))
        if button is not None and button.name:
            pairs.append((button.name, button.value))
        return pairs


class _Parser(HTMLParser):
    def __init__(self):
        HTMLParser.__init__(self, convert_charrefs=True)
        self.forms = []
        self.errors = []
        self.title = ''
        self._form = None
        self._text_field = None      # button, textarea or option collecting its text
        self._select = None
        self._in_title = False
        self._error_depth = []       # stack depth where each open error element started
        self._depth = 0
        self._error_text = []

    def handle_starttag(self, tag, attrs):
        attrs = dict((k.lower(), v if v is not None else '') for k, v in attrs)
        if tag not in VOID:
            self._depth += 1
            if ERROR_CLASS.search(attrs.get('class') or '') or attrs.get('role') == 'alert':
                self._error_depth.append(self._depth)
                self._error_text.append([])
        if tag == 'title':
            self._in_title = True
        elif tag == 'form':
            self._form = Form(attrs)
            self.forms.append(self._form)
        elif tag in ('input', 'button', 'textarea', 'select') and self._form is not None:
            field = Field(tag, attrs)
            self._form.fields.append(field)
            if tag in ('button', 'textarea'):
                self._text_field = field
            elif tag == 'select':
                self._select = field
        elif tag == 'option' and self._select is not None:
            self._select.option(attrs.get('value', ''), 'selected' in attrs)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag == 'title':
            self._in_title = False
        elif tag == 'form':
            self._form = None
        elif tag in ('button', 'textarea'):
            if self._text_field is not None and tag == 'textarea':
                self._text_field.ended()
            self._text_field = None
        elif tag == 'select':
            self._select = None
        if tag not in VOID:
            if self._error_depth and self._error_depth[-1] == self._depth:
                self._error_depth.pop()
                text = ' '.join(' '.join(self._error_text.pop()).split())
                if text:
                    self.errors.append(text)
            self._depth = max(0, self._depth - 1)

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        if self._text_field is not None:
            self._text_field.read(data.strip())
        for chunk in self._error_text:
            chunk.append(data)


class Page:
    """What a client needs from an HTML page: forms, error texts, title."""

    def __init__(self, text):
        parser = _Parser()
        try:
            parser.feed(text or '')
            parser.close()
        except Exception:  # a page we cannot parse has no forms for us
            pass
        self.forms = parser.forms
        self.errors = parser.errors
        self.title = ' '.join(parser.title.split())

    def error_text(self):
        return ' '.join(self.errors)
