package contextmgr

// Estimator turns bytes into estimated tokens. Until calibrated it assumes
// 4 bytes per token (a fair average for English and code with BPE
// tokenizers); Calibrate learns the ratio from the server's usage reports.
// The zero value is ready to use. Not safe for concurrent use.
type Estimator struct {
	bytesPerToken float64
}

// DefaultBytesPerToken is the uncalibrated ratio.
const DefaultBytesPerToken = 4.0

// Calibrate records that a request of bytes bytes was reported by the
// server as reportedTokens prompt tokens. Later estimates use a running
// average (new reports weigh 1/2), so one odd request cannot swing it far.
// Non-positive inputs are ignored.
func (e *Estimator) Calibrate(bytes, reportedTokens int) {
	if bytes <= 0 || reportedTokens <= 0 {
		return
	}
	r := float64(bytes) / float64(reportedTokens)
	r = min(max(r, 1), 16) // a tokenizer lies outside this only on garbage
	if e.bytesPerToken == 0 {
		e.bytesPerToken = r
		return
	}
	e.bytesPerToken = (e.bytesPerToken + r) / 2
}

// BytesPerToken returns the ratio in use.
func (e *Estimator) BytesPerToken() float64 {
	if e.bytesPerToken == 0 {
		return DefaultBytesPerToken
	}
	return e.bytesPerToken
}

// Tokens estimates the tokens of bytes bytes, rounding up.
func (e *Estimator) Tokens(bytes int) int {
	if bytes <= 0 {
		return 0
	}
	r := e.BytesPerToken()
	t := int(float64(bytes) / r)
	if float64(t)*r < float64(bytes) {
		t++
	}
	return t
}

// Bytes converts a token count (a window size) to estimated bytes.
func (e *Estimator) Bytes(tokens int) int {
	return int(float64(tokens) * e.BytesPerToken())
}
