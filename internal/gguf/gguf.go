// Package gguf reads and writes GGUF files, the model format of llama.cpp:
// a header, typed key/value metadata and tensor descriptions, then aligned
// tensor data. It owns the byte layout only; what the keys and tensors mean
// to a model belongs to the caller (internal/llamatest writes test models).
//
// Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
package gguf

import (
	"fmt"
)

// Magic opens every GGUF file ("GGUF" read as a little-endian uint32).
const Magic = 0x46554747

// Version is the file version this package writes (it reads 2 and 3).
const Version = 3

// DefaultAlignment is the data alignment when general.alignment is absent.
const DefaultAlignment = 32

// Type is a metadata value's type tag.
type Type uint32

// Metadata value types, numbered as in the specification.
const (
	TypeUint8 Type = iota
	TypeInt8
	TypeUint16
	TypeInt16
	TypeUint32
	TypeInt32
	TypeFloat32
	TypeBool
	TypeString
	TypeArray
	TypeUint64
	TypeInt64
	TypeFloat64
)

func (t Type) String() string {
	names := [...]string{"uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string", "array", "uint64", "int64", "float64"}
	if int(t) < len(names) {
		return names[t]
	}
	return fmt.Sprintf("type(%d)", uint32(t))
}

// Value is one metadata value. Scalars hold the Go type of their tag
// (uint8 … float64, bool, string); an array holds Elem and a slice of
// that Go type ([]string, []int32, []float32, …; []any for nested arrays).
type Value struct {
	Type Type
	Elem Type // for TypeArray
	V    any
}

// KV is one metadata entry; a file's metadata keeps its order.
type KV struct {
	Key   string
	Value Value
}

// TensorType is a ggml tensor element type. This package moves the bytes
// of any type; it knows the sizes of the unquantized ones.
type TensorType uint32

// The tensor types this package can size. Numbering from ggml.h.
const (
	F32 TensorType = 0
	F16 TensorType = 1
)

// Tensor is a tensor's description and, once read or before written, its
// bytes. Dims are ggml's order: Dims[0] is the fastest-varying (row) size.
type Tensor struct {
	Name string
	Dims []uint64
	Type TensorType
	Data []byte
}

// File is a whole GGUF file in memory.
type File struct {
	Version uint32
	KV      []KV
	Tensors []Tensor
}

// Get returns the value under key.
func (f *File) Get(key string) (Value, bool) {
	for _, kv := range f.KV {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return Value{}, false
}

// Set replaces the value under key, or appends it.
func (f *File) Set(key string, v Value) {
	for i := range f.KV {
		if f.KV[i].Key == key {
			f.KV[i].Value = v
			return
		}
	}
	f.KV = append(f.KV, KV{Key: key, Value: v})
}

// Constructors for the values test models use.

func String(s string) Value      { return Value{Type: TypeString, V: s} }
func Uint32(n uint32) Value      { return Value{Type: TypeUint32, V: n} }
func Int32(n int32) Value        { return Value{Type: TypeInt32, V: n} }
func Float32(x float32) Value    { return Value{Type: TypeFloat32, V: x} }
func Bool(b bool) Value          { return Value{Type: TypeBool, V: b} }
func Strings(s []string) Value   { return Value{Type: TypeArray, Elem: TypeString, V: s} }
func Int32s(n []int32) Value     { return Value{Type: TypeArray, Elem: TypeInt32, V: n} }
func Float32s(x []float32) Value { return Value{Type: TypeArray, Elem: TypeFloat32, V: x} }

// Alignment is the file's data alignment.
func (f *File) Alignment() uint64 {
	if v, ok := f.Get("general.alignment"); ok {
		if n, ok := v.V.(uint32); ok && n > 0 {
			return uint64(n)
		}
	}
	return DefaultAlignment
}

// elements is a tensor's element count.
// It is 0 when the product overflows 2^62.
func (t *Tensor) elements() uint64 {
	n := uint64(1)
	for _, d := range t.Dims {
		if d != 0 && n > (1<<62)/d {
			return 0
		}
		n *= d
	}
	return n
}

// Size is the byte size of an unquantized tensor's data, or false.
func (t *Tensor) Size() (uint64, bool) {
	if t.elements() == 0 && len(t.Dims) > 0 {
		for _, d := range t.Dims {
			if d == 0 {
				return 0, true
			}
		}
		return 0, false // too large to hold
	}
	switch t.Type {
	case F32:
		return 4 * t.elements(), true
	case F16:
		return 2 * t.elements(), true
	}
	return 0, false
}
