"""Drop-in faces for other libraries' users: `hfcompat.compat.tiktoken` takes tiktoken's place
(its names, arguments, results and errors) and runs on hfcompat's own readers and Tokenizer."""
