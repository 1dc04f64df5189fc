package gguf

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
)

// Limits that keep a corrupt or hostile header from asking for unbounded
// memory before a single byte of it is checked.
const (
	maxString  = 1 << 26 // 64 MiB
	maxEntries = 1 << 24 // array elements, keys or tensors
	maxDims    = 8
	maxAlign   = 1 << 16 // ggml writes 32; no tool writes more than a page
)

// Read decodes a whole GGUF file, tensor data included.
func Read(r io.Reader) (*File, error) {
	d := &decoder{r: bufio.NewReaderSize(r, 1<<20)}
	f, err := d.header()
	if err != nil {
		return nil, err
	}
	align := f.Alignment()
	if align == 0 || align&(align-1) != 0 || align > maxAlign {
		return nil, fmt.Errorf("gguf: alignment %d is not a power of two up to %d", align, maxAlign)
	}
	offsets := d.offsets
	if err := d.skip(pad(d.n, align) - d.n); err != nil {
		return nil, err
	}
	var at uint64
	for i := range f.Tensors {
		t := &f.Tensors[i]
		if offsets[i] < at {
			return nil, fmt.Errorf("gguf: tensor %s overlaps the one before it", t.Name)
		}
		if err := d.skip(offsets[i] - at); err != nil {
			return nil, err
		}
		size, ok := t.Size()
		if !ok {
			// A quantized tensor's size needs ggml's block tables; this
			// package reads only the unquantized data it writes.
			return nil, fmt.Errorf("gguf: tensor %s has type %d, which this reader cannot size", t.Name, t.Type)
		}
		// Grown as bytes arrive, so a header that claims more than the
		// file holds fails at its end instead of allocating the claim.
		var data bytes.Buffer
		if n, err := io.CopyN(&data, d.r, int64(size)); err != nil {
			return nil, fmt.Errorf("gguf: tensor %s: %d of %d bytes: %w", t.Name, n, size, io.ErrUnexpectedEOF)
		}
		t.Data = data.Bytes()
		d.n += size
		at = offsets[i] + size
	}
	return f, nil
}

// ReadMetadata decodes the header, metadata and tensor descriptions only.
func ReadMetadata(r io.Reader) (*File, error) {
	d := &decoder{r: bufio.NewReaderSize(r, 1<<20)}
	return d.header()
}

type decoder struct {
	r       *bufio.Reader
	n       uint64
	buf     [8]byte
	offsets []uint64
}

func (d *decoder) header() (*File, error) {
	magic, err := d.u32()
	if err != nil {
		return nil, fmt.Errorf("gguf: reading the header: %w", err)
	}
	if magic != Magic {
		return nil, errors.New("gguf: not a GGUF file (bad magic)")
	}
	version, err := d.u32()
	if err != nil {
		return nil, err
	}
	if version != 2 && version != 3 {
		return nil, fmt.Errorf("gguf: version %d is not supported", version)
	}
	nt, err := d.count()
	if err != nil {
		return nil, err
	}
	nkv, err := d.count()
	if err != nil {
		return nil, err
	}
	f := &File{Version: version}
	for range nkv {
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		t, err := d.u32()
		if err != nil {
			return nil, err
		}
		v, err := d.value(Type(t), 0)
		if err != nil {
			return nil, fmt.Errorf("gguf: key %q: %w", key, err)
		}
		f.KV = append(f.KV, KV{Key: key, Value: v})
	}
	for range nt {
		t, off, err := d.tensorInfo()
		if err != nil {
			return nil, err
		}
		f.Tensors = append(f.Tensors, t)
		d.offsets = append(d.offsets, off)
	}
	return f, nil
}

func (d *decoder) tensorInfo() (Tensor, uint64, error) {
	name, err := d.str()
	if err != nil {
		return Tensor{}, 0, err
	}
	nd, err := d.u32()
	if err != nil {
		return Tensor{}, 0, err
	}
	if nd > maxDims {
		return Tensor{}, 0, fmt.Errorf("gguf: tensor %s has %d dimensions", name, nd)
	}
	t := Tensor{Name: name, Dims: make([]uint64, nd)}
	for i := range t.Dims {
		if t.Dims[i], err = d.u64(); err != nil {
			return Tensor{}, 0, err
		}
		if t.Dims[i] > 1<<40 {
			return Tensor{}, 0, fmt.Errorf("gguf: tensor %s dimension %d is %d", name, i, t.Dims[i])
		}
	}
	typ, err := d.u32()
	if err != nil {
		return Tensor{}, 0, err
	}
	t.Type = TensorType(typ)
	off, err := d.u64()
	return t, off, err
}

func (d *decoder) read(n int) ([]byte, error) {
	if _, err := io.ReadFull(d.r, d.buf[:n]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	d.n += uint64(n)
	return d.buf[:n], nil
}

func (d *decoder) skip(n uint64) error {
	m, err := d.r.Discard(int(n))
	d.n += uint64(m)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

func (d *decoder) u32() (uint32, error) {
	b, err := d.read(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (d *decoder) u64() (uint64, error) {
	b, err := d.read(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

func (d *decoder) count() (int, error) {
	n, err := d.u64()
	if err != nil {
		return 0, err
	}
	if n > maxEntries {
		return 0, fmt.Errorf("gguf: a count of %d is past this reader's limit", n)
	}
	return int(n), nil
}

func (d *decoder) str() (string, error) {
	n, err := d.u64()
	if err != nil {
		return "", err
	}
	if n > maxString {
		return "", fmt.Errorf("gguf: a string of %d bytes is past this reader's limit", n)
	}
	var b strings.Builder
	if _, err := io.CopyN(&b, d.r, int64(n)); err != nil {
		return "", io.ErrUnexpectedEOF
	}
	d.n += n
	return b.String(), nil
}

func (d *decoder) value(t Type, depth int) (Value, error) {
	if t != TypeArray {
		v, err := d.scalar(t)
		return Value{Type: t, V: v}, err
	}
	if depth > 4 {
		return Value{}, errors.New("arrays nested too deep")
	}
	et, err := d.u32()
	if err != nil {
		return Value{}, err
	}
	n, err := d.count()
	if err != nil {
		return Value{}, err
	}
	elem := Type(et)
	if elem == TypeArray {
		out := make([]any, 0, min(n, 1024))
		for range n {
			sub, err := d.value(TypeArray, depth+1)
			if err != nil {
				return Value{}, err
			}
			out = append(out, sub)
		}
		return Value{Type: TypeArray, Elem: elem, V: out}, nil
	}
	goType, ok := goTypes[elem]
	if !ok {
		return Value{}, fmt.Errorf("unknown array element type %v", elem)
	}
	s := reflect.MakeSlice(reflect.SliceOf(goType), 0, min(n, 1024))
	for range n {
		x, err := d.scalar(elem)
		if err != nil {
			return Value{}, err
		}
		s = reflect.Append(s, reflect.ValueOf(x))
	}
	return Value{Type: TypeArray, Elem: elem, V: s.Interface()}, nil
}

var goTypes = map[Type]reflect.Type{
	TypeUint8: reflect.TypeFor[uint8](), TypeInt8: reflect.TypeFor[int8](),
	TypeUint16: reflect.TypeFor[uint16](), TypeInt16: reflect.TypeFor[int16](),
	TypeUint32: reflect.TypeFor[uint32](), TypeInt32: reflect.TypeFor[int32](),
	TypeFloat32: reflect.TypeFor[float32](), TypeBool: reflect.TypeFor[bool](),
	TypeString: reflect.TypeFor[string](), TypeUint64: reflect.TypeFor[uint64](),
	TypeInt64: reflect.TypeFor[int64](), TypeFloat64: reflect.TypeFor[float64](),
}

func (d *decoder) scalar(t Type) (any, error) {
	size := map[Type]int{TypeUint8: 1, TypeInt8: 1, TypeBool: 1, TypeUint16: 2, TypeInt16: 2,
		TypeUint32: 4, TypeInt32: 4, TypeFloat32: 4, TypeUint64: 8, TypeInt64: 8, TypeFloat64: 8}
	if t == TypeString {
		return d.str()
	}
	n, ok := size[t]
	if !ok {
		return nil, fmt.Errorf("unknown value type %v", t)
	}
	b, err := d.read(n)
	if err != nil {
		return nil, err
	}
	switch t {
	case TypeUint8:
		return b[0], nil
	case TypeInt8:
		return int8(b[0]), nil
	case TypeBool:
		return b[0] != 0, nil
	case TypeUint16:
		return binary.LittleEndian.Uint16(b), nil
	case TypeInt16:
		return int16(binary.LittleEndian.Uint16(b)), nil
	case TypeUint32:
		return binary.LittleEndian.Uint32(b), nil
	case TypeInt32:
		return int32(binary.LittleEndian.Uint32(b)), nil
	case TypeFloat32:
		return math.Float32frombits(binary.LittleEndian.Uint32(b)), nil
	case TypeUint64:
		return binary.LittleEndian.Uint64(b), nil
	case TypeInt64:
		return int64(binary.LittleEndian.Uint64(b)), nil
	default:
		return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
	}
}

// each walks a typed slice for the writer.
func each(s any, length func(int), elem func(any)) {
	v := reflect.ValueOf(s)
	length(v.Len())
	for i := range v.Len() {
		elem(v.Index(i).Interface())
	}
}
