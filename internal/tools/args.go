package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Local models often quote numbers and booleans in tool arguments
// ("offset": "10", "replace_all": "true"); these types accept both forms
// so such a call runs instead of failing on its shape.

// flexInt is a JSON number or a string holding one; null is 0.
type flexInt int64

// UnmarshalJSON implements json.Unmarshaler.
func (n *flexInt) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		b = []byte(s)
	}
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(b)), 64)
	if err != nil || f != float64(int64(f)) {
		return fmt.Errorf("want an integer, got %s", b)
	}
	*n = flexInt(f)
	return nil
}

// flexBool is a JSON boolean or the string "true"/"false"; null is false.
type flexBool bool

// UnmarshalJSON implements json.Unmarshaler.
func (v *flexBool) UnmarshalJSON(b []byte) error {
	switch string(bytes.TrimSpace(b)) {
	case "true", `"true"`, `"True"`, "1", `"1"`:
		*v = true
	case "false", `"false"`, `"False"`, "0", `"0"`, "null", `""`:
		*v = false
	default:
		return fmt.Errorf("want true or false, got %s", b)
	}
	return nil
}
