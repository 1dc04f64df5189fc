package event

import "testing"

func TestStamperFillsOutsideEvents(t *testing.T) {
	var got []Event
	s := &Stamper{Next: SinkFunc(func(e Event) { got = append(got, e) })}
	s.Emit(Event{Type: RunStart, RunID: "run_1", Turn: 0})
	s.Emit(Event{Type: Text, RunID: "run_1", Turn: 2})
	s.Emit(Event{Type: PermissionRequest})
	last := got[2]
	if last.RunID != "run_1" || last.Turn != 2 || last.Time.IsZero() || last.SchemaVersion != SchemaVersion {
		t.Fatalf("not stamped: %+v", last)
	}
}
