#if os(Linux)
    import Foundation
    import Glibc
    import ParleyCore

    /// CMU PocketSphinx's C API, loaded at run time with `dlopen` (Debian's `libpocketsphinx3` and
    /// `libsphinxbase3`, 0.8+5prealpha).
    ///
    /// Debian ships the libraries without headers (there is no `-dev` package here), and the package must build
    /// on machines without them, so nothing links them: the functions are looked up by name and called through
    /// `@convention(c)` pointers whose types are written from the 5prealpha headers (`pocketsphinx.h`,
    /// `cmd_ln.h`, `logmath.h`, `err.h`). Only non-variadic functions are used: the configuration is parsed with
    /// `cmd_ln_parse_r` from an argument vector, not with the variadic `cmd_ln_init`.
    ///
    /// Decoders are independent, but creating and freeing them goes through ``lifecycle``, one at a time in the
    /// process: SphinxBase keeps some global state (its log) that was not written for threads.
    struct PocketsphinxLibrary: Sendable {
        typealias Pointer = OpaquePointer
        typealias Arguments = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

        // sphinxbase
        /// `cmd_ln_t *cmd_ln_parse_r(cmd_ln_t *inout_cmdln, const arg_t *defn, int32 argc, char *argv[],
        /// int32 strict)`; argv[0] is the program name, as in `main`.
        let parseArguments: @convention(c) (Pointer?, Pointer?, Int32, Arguments?, Int32) -> Pointer?
        /// `int cmd_ln_free_r(cmd_ln_t *cmdln)`
        let freeConfiguration: @convention(c) (Pointer?) -> Int32
        /// `float64 logmath_exp(logmath_t *lmath, int logb_p)`
        let logmathExp: @convention(c) (Pointer?, Int32) -> Double
        /// `void err_set_logfp(FILE *stream)`; `NULL` turns logging off.
        let setLogStream: @convention(c) (Pointer?) -> Void

        // pocketsphinx
        /// `const arg_t *ps_args(void)`
        let arguments: @convention(c) () -> Pointer?
        /// `ps_decoder_t *ps_init(cmd_ln_t *config)`
        let initialize: @convention(c) (Pointer?) -> Pointer?
        /// `int ps_free(ps_decoder_t *ps)`
        let free: @convention(c) (Pointer?) -> Int32
        /// `logmath_t *ps_get_logmath(ps_decoder_t *ps)`
        let logmath: @convention(c) (Pointer?) -> Pointer?
        /// `int ps_start_utt(ps_decoder_t *ps)`
        let startUtterance: @convention(c) (Pointer?) -> Int32
        /// `int ps_process_raw(ps_decoder_t *ps, int16 const *data, size_t n_samples, int no_search,
        /// int full_utt)`
        let processRaw: @convention(c) (Pointer?, UnsafePointer<Int16>?, Int, Int32, Int32) -> Int32
        /// `uint8 ps_get_in_speech(ps_decoder_t *ps)`
        let inSpeech: @convention(c) (Pointer?) -> UInt8
        /// `int ps_end_utt(ps_decoder_t *ps)`
        let endUtterance: @convention(c) (Pointer?) -> Int32
        /// `char const *ps_get_hyp(ps_decoder_t *ps, int32 *out_best_score)`
        let hypothesis: @convention(c) (Pointer?, UnsafeMutablePointer<Int32>?) -> UnsafePointer<CChar>?
        /// `int32 ps_get_prob(ps_decoder_t *ps)`
        let probability: @convention(c) (Pointer?) -> Int32
        /// `ps_nbest_t *ps_nbest(ps_decoder_t *ps)`
        let nbest: @convention(c) (Pointer?) -> Pointer?
        /// `ps_nbest_t *ps_nbest_next(ps_nbest_t *nbest)` (frees the iterator at the end)
        let nbestNext: @convention(c) (Pointer?) -> Pointer?
        /// `char const *ps_nbest_hyp(ps_nbest_t *nbest, int32 *out_score)`
        let nbestHypothesis: @convention(c) (Pointer?, UnsafeMutablePointer<Int32>?) -> UnsafePointer<CChar>?
        /// `void ps_nbest_free(ps_nbest_t *nbest)`
        let nbestFree: @convention(c) (Pointer?) -> Void
        /// `ps_seg_t *ps_seg_iter(ps_decoder_t *ps)`
        let segmentIterator: @convention(c) (Pointer?) -> Pointer?
        /// `ps_seg_t *ps_seg_next(ps_seg_t *seg)` (frees the iterator at the end)
        let segmentNext: @convention(c) (Pointer?) -> Pointer?
        /// `char const *ps_seg_word(ps_seg_t *seg)`
        let segmentWord: @convention(c) (Pointer?) -> UnsafePointer<CChar>?
        /// `void ps_seg_frames(ps_seg_t *seg, int *out_sf, int *out_ef)`
        let segmentFrames: @convention(c) (Pointer?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void

        /// Held while a decoder is created or freed.
        static let lifecycle = NSLock()

        /// The Debian packages that hold the libraries and the model.
        static let packages = "libpocketsphinx3 libsphinxbase3 pocketsphinx-en-us"

        /// The libraries found on the default path, loaded once per process.
        static let shared: Result<PocketsphinxLibrary, ParleyError> = load(
            pocketsphinx: "libpocketsphinx.so.3", sphinxbase: "libsphinxbase.so.3")

        /// Loads the libraries named (file names looked up like the dynamic linker does, or paths).
        /// - Throws: `speech.engineUnavailable` naming the Debian packages when a library or a function is missing.
        static func load(pocketsphinx: String, sphinxbase: String) -> Result<PocketsphinxLibrary, ParleyError> {
            // RTLD_GLOBAL: libpocketsphinx resolves its sphinxbase symbols against the copy loaded first.
            guard let base = dlopen(sphinxbase, RTLD_NOW | RTLD_GLOBAL) else {
                return .failure(missing(sphinxbase))
            }
            guard let ps = dlopen(pocketsphinx, RTLD_NOW | RTLD_GLOBAL) else {
                return .failure(missing(pocketsphinx))
            }
            func symbol<F>(_ handle: UnsafeMutableRawPointer, _ name: String) throws(ParleyError) -> F {
                guard let address = dlsym(handle, name) else {
                    throw ParleyError(
                        .speechEngineUnavailable,
                        "\(name) is missing from the PocketSphinx libraries: install Debian's \(packages) "
                            + "(0.8+5prealpha)")
                }
                return unsafeBitCast(address, to: F.self)
            }
            do {
                let library = PocketsphinxLibrary(
                    parseArguments: try symbol(base, "cmd_ln_parse_r"),
                    freeConfiguration: try symbol(base, "cmd_ln_free_r"),
                    logmathExp: try symbol(base, "logmath_exp"),
                    setLogStream: try symbol(base, "err_set_logfp"),
                    arguments: try symbol(ps, "ps_args"),
                    initialize: try symbol(ps, "ps_init"),
                    free: try symbol(ps, "ps_free"),
                    logmath: try symbol(ps, "ps_get_logmath"),
                    startUtterance: try symbol(ps, "ps_start_utt"),
                    processRaw: try symbol(ps, "ps_process_raw"),
                    inSpeech: try symbol(ps, "ps_get_in_speech"),
                    endUtterance: try symbol(ps, "ps_end_utt"),
                    hypothesis: try symbol(ps, "ps_get_hyp"),
                    probability: try symbol(ps, "ps_get_prob"),
                    nbest: try symbol(ps, "ps_nbest"),
                    nbestNext: try symbol(ps, "ps_nbest_next"),
                    nbestHypothesis: try symbol(ps, "ps_nbest_hyp"),
                    nbestFree: try symbol(ps, "ps_nbest_free"),
                    segmentIterator: try symbol(ps, "ps_seg_iter"),
                    segmentNext: try symbol(ps, "ps_seg_next"),
                    segmentWord: try symbol(ps, "ps_seg_word"),
                    segmentFrames: try symbol(ps, "ps_seg_frames"))
                // Logging off, once, for the whole process. The log is one global `FILE *` in SphinxBase: `-logfn`
                // would make every `ps_init` open a new one and close the previous one under the feet of decoders
                // logging on other threads (a use after free with concurrent sessions).
                library.setLogStream(nil)
                return .success(library)
            } catch {
                return .failure(error)
            }
        }

        private static func missing(_ library: String) -> ParleyError {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return ParleyError(
                .speechEngineUnavailable,
                "\(library) cannot be loaded (\(reason)): install Debian's \(packages)")
        }
    }
#endif
