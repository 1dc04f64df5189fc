package schema

import (
	"bytes"
	"encoding/json"
)

// ObjectKeys returns the keys of a JSON object in the order written (a
// decoded map keeps none: a schema's properties are listed, and a form
// asks, in the author's order); nil when obj is not an object, the keys
// read so far when it breaks off.
func ObjectKeys(obj json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
		keys = append(keys, k)
	}
	return keys
}
