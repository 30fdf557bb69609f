package sim

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
	"unicode/utf8"
)

// canonicalBytes writes the canonical form of one JSON document straight
// from its bytes: object members sorted by key, no insignificant space,
// numbers and literals as written, strings as encoding/json writes them
// (HTML characters unescaped). It gives the bytes that decoding into `any`
// (with UseNumber) and encoding again give, without building the value.
// ok is false for anything it does not handle byte for byte — invalid
// JSON, duplicate keys, keys with escapes — and the caller then takes the
// slow path.
func canonicalBytes(dst, src []byte) (out []byte, ok bool) {
	c := canonicalizer{src: src}
	c.skipSpace()
	dst, ok = c.value(dst)
	if !ok {
		return dst, false
	}
	c.skipSpace()
	return dst, c.pos == len(src)
}

type canonicalizer struct {
	src []byte
	pos int
}

// member is one object member: its key and the span of its canonical
// value in the scratch buffer.
type member struct {
	key        []byte
	start, end int
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

type scratch struct {
	buf     []byte
	members []member
}

func (c *canonicalizer) skipSpace() {
	for c.pos < len(c.src) {
		switch c.src[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

func (c *canonicalizer) value(dst []byte) ([]byte, bool) {
	if c.pos >= len(c.src) {
		return dst, false
	}
	switch b := c.src[c.pos]; {
	case b == '{':
		return c.object(dst)
	case b == '[':
		return c.array(dst)
	case b == '"':
		return c.str(dst)
	case b == 't':
		return c.literal(dst, "true")
	case b == 'f':
		return c.literal(dst, "false")
	case b == 'n':
		return c.literal(dst, "null")
	case b == '-' || (b >= '0' && b <= '9'):
		return c.number(dst)
	}
	return dst, false
}

func (c *canonicalizer) literal(dst []byte, lit string) ([]byte, bool) {
	if !bytes.HasPrefix(c.src[c.pos:], []byte(lit)) {
		return dst, false
	}
	c.pos += len(lit)
	return append(dst, lit...), true
}

// number copies a number literal after checking its JSON grammar.
func (c *canonicalizer) number(dst []byte) ([]byte, bool) {
	start := c.pos
	s := c.src
	i := c.pos
	if s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return dst, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return dst, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return dst, false
		}
	}
	c.pos = i
	return append(dst, s[start:i]...), true
}

// str copies a string that encoding/json would write unchanged: no
// escapes, no control characters, valid UTF-8 without U+2028/U+2029.
// Anything else is decoded and encoded again.
func (c *canonicalizer) str(dst []byte) ([]byte, bool) {
	s := c.src
	i := c.pos + 1
	plain := true
	for {
		if i >= len(s) {
			return dst, false
		}
		b := s[i]
		if b == '"' {
			break
		}
		if b == '\\' {
			plain = false
			i += 2
			continue
		}
		if b < 0x20 {
			return dst, false // invalid JSON
		}
		if b >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				plain = false
			}
			i += size
			continue
		}
		i++
	}
	raw := s[c.pos : i+1]
	c.pos = i + 1
	if plain {
		return append(dst, raw...), true
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return dst, false
	}
	return appendString(dst, v), true
}

// appendString encodes s as encoding/json does with HTML escaping off.
func appendString(dst []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(dst, bytes.TrimRight(buf.Bytes(), "\n")...)
}

func (c *canonicalizer) array(dst []byte) ([]byte, bool) {
	c.pos++ // [
	dst = append(dst, '[')
	c.skipSpace()
	if c.pos < len(c.src) && c.src[c.pos] == ']' {
		c.pos++
		return append(dst, ']'), true
	}
	for {
		var ok bool
		if dst, ok = c.value(dst); !ok {
			return dst, false
		}
		c.skipSpace()
		if c.pos >= len(c.src) {
			return dst, false
		}
		switch c.src[c.pos] {
		case ',':
			c.pos++
			dst = append(dst, ',')
			c.skipSpace()
		case ']':
			c.pos++
			return append(dst, ']'), true
		default:
			return dst, false
		}
	}
}

func (c *canonicalizer) object(dst []byte) ([]byte, bool) {
	c.pos++ // {
	c.skipSpace()
	if c.pos < len(c.src) && c.src[c.pos] == '}' {
		c.pos++
		return append(dst, '{', '}'), true
	}
	sc := scratchPool.Get().(*scratch)
	defer func() {
		sc.buf, sc.members = sc.buf[:0], sc.members[:0]
		scratchPool.Put(sc)
	}()
	// Members are canonicalised into sc.buf (nested objects take their
	// own scratch), then written in key order.
	buf, members := sc.buf[:0], sc.members[:0]
	for {
		if c.pos >= len(c.src) || c.src[c.pos] != '"' {
			return dst, false
		}
		keyStart := c.pos
		var ok bool
		start := len(buf)
		if buf, ok = c.str(buf); !ok {
			return dst, false
		}
		key := c.src[keyStart:c.pos]
		if bytes.IndexByte(key, '\\') >= 0 || !bytes.Equal(key, buf[start:]) {
			return dst, false // the sort order of escaped keys is the slow path's
		}
		c.skipSpace()
		if c.pos >= len(c.src) || c.src[c.pos] != ':' {
			return dst, false
		}
		c.pos++
		c.skipSpace()
		vstart := len(buf)
		if buf, ok = c.value(buf); !ok {
			return dst, false
		}
		members = append(members, member{key: key[1 : len(key)-1], start: vstart, end: len(buf)})
		c.skipSpace()
		if c.pos >= len(c.src) {
			return dst, false
		}
		if c.src[c.pos] == ',' {
			c.pos++
			c.skipSpace()
			continue
		}
		if c.src[c.pos] != '}' {
			return dst, false
		}
		c.pos++
		break
	}
	slices.SortFunc(members, func(a, b member) int { return bytes.Compare(a.key, b.key) })
	dst = append(dst, '{')
	for i, m := range members {
		if i > 0 {
			if bytes.Equal(members[i-1].key, m.key) {
				return dst, false // duplicate keys: the last one wins in the slow path
			}
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, m.key...)
		dst = append(dst, '"', ':')
		dst = append(dst, buf[m.start:m.end]...)
	}
	sc.buf, sc.members = buf, members
	return append(dst, '}'), true
}
