package gguf

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// Write encodes f. Each tensor's Data must hold exactly its size for the
// unquantized types; other types are written as given.
func Write(w io.Writer, f *File) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	e := &encoder{w: bw}
	e.u32(Magic)
	e.u32(Version)
	e.u64(uint64(len(f.Tensors)))
	e.u64(uint64(len(f.KV)))
	for _, kv := range f.KV {
		e.str(kv.Key)
		e.u32(uint32(kv.Value.Type))
		e.value(kv.Value)
	}
	align := f.Alignment()
	var offset uint64
	for i := range f.Tensors {
		t := &f.Tensors[i]
		if size, ok := t.Size(); ok && size != uint64(len(t.Data)) {
			return fmt.Errorf("gguf: tensor %s holds %d bytes, its shape needs %d", t.Name, len(t.Data), size)
		}
		e.str(t.Name)
		e.u32(uint32(len(t.Dims)))
		for _, d := range t.Dims {
			e.u64(d)
		}
		e.u32(uint32(t.Type))
		e.u64(offset)
		offset = pad(offset+uint64(len(t.Data)), align)
	}
	e.zeros(pad(e.n, align) - e.n)
	for i := range f.Tensors {
		data := f.Tensors[i].Data
		e.bytes(data)
		e.zeros(pad(uint64(len(data)), align) - uint64(len(data)))
	}
	if e.err != nil {
		return e.err
	}
	return bw.Flush()
}

func pad(n, align uint64) uint64 { return (n + align - 1) / align * align }

type encoder struct {
	w   *bufio.Writer
	n   uint64
	err error
	buf [8]byte
}

func (e *encoder) bytes(b []byte) {
	if e.err != nil {
		return
	}
	n, err := e.w.Write(b)
	e.n += uint64(n)
	e.err = err
}

var zeroPage [4096]byte

func (e *encoder) zeros(n uint64) {
	for n > 0 && e.err == nil {
		k := min(n, uint64(len(zeroPage)))
		e.bytes(zeroPage[:k])
		n -= k
	}
}

func (e *encoder) u8(v uint8)   { e.bytes([]byte{v}) }
func (e *encoder) u16(v uint16) { binary.LittleEndian.PutUint16(e.buf[:], v); e.bytes(e.buf[:2]) }
func (e *encoder) u32(v uint32) { binary.LittleEndian.PutUint32(e.buf[:], v); e.bytes(e.buf[:4]) }
func (e *encoder) u64(v uint64) { binary.LittleEndian.PutUint64(e.buf[:], v); e.bytes(e.buf[:8]) }
func (e *encoder) str(s string) { e.u64(uint64(len(s))); e.bytes([]byte(s)) }

func (e *encoder) value(v Value) {
	if v.Type == TypeArray {
		e.array(v)
		return
	}
	e.scalar(v.Type, v.V)
}

func (e *encoder) scalar(t Type, v any) {
	switch t {
	case TypeUint8:
		e.u8(v.(uint8))
	case TypeInt8:
		e.u8(uint8(v.(int8)))
	case TypeUint16:
		e.u16(v.(uint16))
	case TypeInt16:
		e.u16(uint16(v.(int16)))
	case TypeUint32:
		e.u32(v.(uint32))
	case TypeInt32:
		e.u32(uint32(v.(int32)))
	case TypeFloat32:
		e.u32(math.Float32bits(v.(float32)))
	case TypeBool:
		b := uint8(0)
		if v.(bool) {
			b = 1
		}
		e.u8(b)
	case TypeString:
		e.str(v.(string))
	case TypeUint64:
		e.u64(v.(uint64))
	case TypeInt64:
		e.u64(uint64(v.(int64)))
	case TypeFloat64:
		e.u64(math.Float64bits(v.(float64)))
	default:
		if e.err == nil {
			e.err = fmt.Errorf("gguf: cannot write a value of %v", t)
		}
	}
}

func (e *encoder) array(v Value) {
	e.u32(uint32(v.Elem))
	switch s := v.V.(type) {
	case []any:
		e.u64(uint64(len(s)))
		for _, x := range s {
			if sub, ok := x.(Value); ok && v.Elem == TypeArray {
				e.array(sub)
				continue
			}
			e.scalar(v.Elem, x)
		}
	default:
		each(s, func(n int) { e.u64(uint64(n)) }, func(x any) { e.scalar(v.Elem, x) })
	}
}
