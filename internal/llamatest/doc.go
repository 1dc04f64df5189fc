// Package llamatest makes a real llama.cpp llama-server usable in tests: it
// writes small GGUF models whose weights deterministically answer a script
// of replies, and starts the server on 127.0.0.1 with them.
//
// The model is a one-layer llama (one attention head, one feed-forward
// block) over the real Qwen2 vocabulary and a real chat template, both
// read from llama.cpp's own files. Its wiring, dimension by dimension:
//
//   - Attention counts the chat messages. The generation prompt's last
//     token ("\n" after "<|im_start|>assistant") queries the BOS token and
//     every <|im_start|>; with the BOS weighted e² against each marker's 1,
//     the value read is k/(e²+k) for k messages, a number that grows with
//     k and tells each count from the next.
//   - The feed-forward block does two jobs, each unit gated by SiLU on a
//     dimension only its own token has (SiLU(0) = 0, so a unit is silent
//     elsewhere). At "\n" one unit per reply writes a line a+s·f into its
//     first token's dimension; the lines are chosen so that the reply whose
//     message count matches wins. At a reply's own tokens one unit per
//     token writes into the next token's dimension: a bigram chain that
//     spells the reply and ends with <|im_end|>.
//   - The output matrix is the embedding matrix (tied), so a token's
//     logit is its own dimension of the final state.
//
// A reply's tokens must all differ from each other and from other replies'
// (the next token is a function of the current one); the generator finds
// such a split of the text, which the server detokenizes back into the very
// same text. RoPE is switched off with frequency factors, so positions do
// not matter. Model.Next simulates the forward pass in float64, with the
// KV cache rounded to float16 as the server stores it, so unit tests prove
// the margins without a server; e2e/llamaserver runs the real one.
//
// This package owns test models and the server process; it must not be
// imported by Zero's own code paths.
package llamatest
