/*
 * course_vocab.c — the computer science curriculum the courses dataset draws
 * from: research areas (topics, number ranges, cross-listings), a set of
 * classic courses every CS department has, and names for instructors.
 *
 * Classic courses are listed so that prerequisites always point to earlier
 * rows; generated courses are added after them, so even a tiny scale has
 * the intro sequence that program requirements and prerequisites name.
 */
#include "course.h"

#include <string.h>

const gen_area gen_area_table[] = {
{"intro", "programming", "Programming", 0.5, "100-109|190-199", "ENGR",
 "variables and control flow|functions and decomposition|lists and dictionaries|recursion|"
 "object-oriented programming|debugging|graphics and animation|file processing|basic data structures|"
 "sorting and searching|memory and pointers|testing|program style|linked lists|big-O analysis",
 "Python|Java|C++", "[a small game|a text adventure|a data analysis tool|a simple web app]", -0.3, -0.6, 0.2},
{"systems", "computer systems", "Computer Systems", 1.2, "110-119|140-142|240-249|340-349", "EE",
 "processes and threads|virtual memory|file systems|concurrency and synchronization|scheduling|"
 "distributed consensus|caching|remote procedure calls|fault tolerance|kernel design|storage systems|"
 "performance analysis|containers and virtualization|cloud computing|MapReduce-style data processing",
 "C|C++|Rust|Go", "[a file system|a distributed key-value store|a small operating system kernel|a web server]",
 0.8, -0.2, 0.6},
{"theory", "theoretical computer science", "Theory of Computation", 1.0, "150-169|250-269|350-369",
 "MATH|MS&E",
 "automata and regular languages|Turing machines|NP-completeness|randomized algorithms|"
 "approximation algorithms|graph algorithms|dynamic programming|linear programming|complexity classes|"
 "online algorithms|hashing|lower bounds|streaming algorithms|algorithmic game theory|spectral graph theory",
 "Python", "[a research-style survey|a written exposition]", 0.3, 1.0, -0.8},
{"ai", "artificial intelligence", "Artificial Intelligence", 1.2, "220-223|225-228|232-239|320-339",
 "SYMSYS|MS&E",
 "search and planning|Markov decision processes|reinforcement learning|constraint satisfaction|"
 "Bayesian networks|game playing|logic and inference|decision making under uncertainty|multi-agent systems|"
 "probabilistic reasoning|heuristic search|knowledge representation|AI safety|large language models|"
 "agents and tool use",
 "Python", "[a game-playing agent|an autonomous agent|a planning system|an AI assistant]", 0.3, 0.5, 0.3},
{"ml", "machine learning", "Machine Learning", 1.3, "229-230|236-236|320-339",
 "STATS|EE",
 "linear regression|logistic regression|neural networks|support vector machines|kernel methods|"
 "decision trees and boosting|unsupervised learning|clustering|dimensionality reduction|generative models|"
 "optimization for deep learning|learning theory|transformers|self-supervised learning|"
 "fairness in machine learning",
 "Python|PyTorch|JAX", "[a model for a real dataset|a deep learning pipeline|a Kaggle-style predictor]",
 0.4, 0.8, 0.3},
{"nlp", "natural language processing", "Natural Language Processing", 0.9, "224-224|324-329",
 "LINGUIST|SYMSYS",
 "word embeddings|language modeling|transformers|machine translation|question answering|parsing|"
 "sentiment analysis|retrieval-augmented generation|dialogue systems|information extraction|"
 "speech recognition|instruction tuning|evaluation of language models|semantic parsing|multilingual models",
 "Python|PyTorch", "[a chatbot|a question answering system|a custom language model|a semantic parser]",
 0.4, 0.5, 0.6},
{"vision", "computer vision", "Computer Vision", 0.8, "131-131|231-231|331-331",
 "EE",
 "image classification|object detection|segmentation|convolutional networks|3D reconstruction|"
 "multi-view geometry|video understanding|image generation|diffusion models|visual recognition|"
 "camera models|optical flow|vision transformers|self-supervised visual learning|embodied vision",
 "Python|PyTorch", "[an object detector|a 3D reconstruction pipeline|an image generator]", 0.5, 0.7, 0.5},
{"graphics", "computer graphics", "Computer Graphics", 0.7, "148-148|248-248|348-348|448-448",
 "ARTSTUDI|ME",
 "rasterization|ray tracing|physically based rendering|geometry processing|animation|shading languages|"
 "texture mapping|GPU programming|computational photography|simulation of cloth and fluids|"
 "virtual reality|mesh processing|image processing|character animation|data visualization",
 "C++|GLSL|CUDA", "[a ray tracer|a real-time renderer|an animated short|a VR experience]", 0.7, 0.4, 0.8},
{"hci", "human-computer interaction", "Human-Computer Interaction", 0.9, "147-147|247-247|347-347|377-377",
 "SYMSYS|DESIGN",
 "user-centered design|prototyping|usability testing|need-finding|interaction techniques|visualization|"
 "social computing|crowdsourcing|accessibility|design studios|mobile interfaces|research methods|"
 "AI-assisted interfaces|tangible interfaces|conversational interfaces",
 "JavaScript|Swift|Figma", "[a mobile app|an interactive prototype|a social computing system]",
 0.2, -0.9, 0.9},
{"databases", "data management", "Data Management", 0.7, "145-145|245-246|345-347", "EE",
 "relational algebra|SQL|query optimization|transactions and concurrency control|indexing|"
 "database design|NoSQL systems|distributed databases|data mining|data integration|stream processing|"
 "column stores|recovery and logging|data cleaning|vector databases",
 "SQL|Python|Java", "[a small database engine|a data pipeline|a query optimizer]", 0.5, 0.0, 0.5},
{"security", "computer security", "Computer Security", 0.7, "155-155|255-255|355-356", "EE",
 "cryptography|web security|network security|software vulnerabilities|authentication|privacy|"
 "malware analysis|secure system design|threat modeling|applied cryptography|blockchains|side channels|"
 "fuzzing|usable security|memory safety",
 "C|Python|Rust", "[an exploit for a vulnerable server|a secure messaging app|a fuzzer]", 0.5, 0.3, 0.4},
{"networking", "computer networking", "Computer Networks", 0.5, "144-144|244-244|344-344", "EE",
 "TCP/IP|routing|congestion control|wireless networks|network measurement|software-defined networking|"
 "datacenter networks|peer-to-peer systems|the Internet architecture|video streaming|DNS|"
 "mobile networking|network programming|content delivery|network verification",
 "C++|Python|Go", "[a TCP implementation|a router|a video streaming service]", 0.6, 0.1, 0.6},
{"pl", "programming languages", "Programming Languages", 0.6, "143-143|242-243|343-343", "",
 "type systems|lambda calculus|functional programming|compilers|program analysis|parsing and lexing|"
 "code generation|garbage collection|domain-specific languages|program verification|semantics|"
 "optimization passes|concurrency models|Rust and ownership|just-in-time compilation",
 "OCaml|Haskell|Rust|C++", "[a compiler|an interpreter|a static analyzer]", 0.7, 0.5, 0.6},
{"robotics", "robotics", "Robotics", 0.6, "223-223|237-237|327-327", "ME|AA|EE",
 "kinematics|motion planning|control|localization and mapping|robot perception|manipulation|"
 "legged locomotion|imitation learning|sensor fusion|reinforcement learning for robots|"
 "human-robot interaction|autonomous driving|grasping|trajectory optimization|state estimation",
 "Python|C++|ROS", "[a mobile robot|a robot arm controller|a self-driving simulation]", 0.6, 0.7, 0.8},
{"bio", "computational biology", "Computational Biology", 0.5, "270-279|371-379", "BIOMEDIN|BIOE|GENE",
 "sequence alignment|genomics|protein structure|phylogenetics|gene expression analysis|biomedical data|"
 "single-cell analysis|population genetics|hidden Markov models|drug discovery|clinical machine learning|"
 "medical imaging|systems biology|molecular dynamics|bioinformatics pipelines",
 "Python|R", "[a variant caller|a protein structure predictor|a clinical risk model]", 0.3, 0.5, 0.4},
{"society", "computing and society", "Computing and Society", 0.5, "181-184|281-282|381-381", "PUBLPOL|COMM|ETHICSOC",
 "ethics of AI|privacy and surveillance|technology policy|algorithmic fairness|misinformation|"
 "the future of work|intellectual property|digital accessibility|technology and democracy|"
 "responsible computing|content moderation|environmental impact of computing|inclusive design|"
 "data governance|history of computing",
 "Python", "[a policy proposal|an audit of a deployed system]", -0.4, -0.9, 0.1},
{"architecture", "computer architecture", "Computer Architecture", 0.5, "149-149|217-217|316-316", "EE",
 "instruction set architecture|pipelining|caches|memory hierarchy|parallel processors|GPUs|"
 "hardware accelerators|branch prediction|out-of-order execution|power and energy|FPGA design|"
 "multicore coherence|domain-specific hardware|Verilog|performance modeling",
 "C|Verilog|CUDA", "[a pipelined processor|an FPGA accelerator|a cache simulator]", 0.8, 0.3, 0.6},
};

const size_t gen_area_count = sizeof gen_area_table / sizeof gen_area_table[0];

int gen_area_find(const char *key)
{
    for (size_t i = 0; i < gen_area_count; i++)
        if (!strcmp(gen_area_table[i].key, key)) return (int)i;
    return 0;
}

#define I GEN_LEVEL_INTRO
#define U GEN_LEVEL_UNDERGRAD
#define G GEN_LEVEL_GRAD
#define S GEN_LEVEL_SEMINAR

const gen_classic gen_classic_table[] = {
{"CS 106A", "Programming Methodology", "intro", I, 3, 5,
 "variables and control flow|functions and decomposition|lists and dictionaries|graphics and animation|file processing", NULL},
{"CS 106B", "Programming Abstractions", "intro", I, 3, 5,
 "recursion|abstract data types|linked lists|sorting and searching|big-O analysis", "CS 106A"},
{"CS 103", "Mathematical Foundations of Computing", "theory", U, 3, 5,
 "proof techniques|discrete mathematics|automata and regular languages|Turing machines|computability", "CS 106A"},
{"CS 107", "Computer Organization and Systems", "systems", U, 3, 5,
 "memory and pointers|assembly language|bit manipulation|heap allocators|the C language", "CS 106B"},
{"CS 109", "Probability for Computer Scientists", "theory", U, 3, 5,
 "combinatorics|random variables|probability distributions|maximum likelihood estimation|Bayesian inference", "CS 106B|CS 103"},
{"CS 111", "Operating Systems Principles", "systems", U, 3, 5,
 "processes and threads|virtual memory|file systems|concurrency and synchronization|scheduling", "CS 107"},
{"CS 110", "Principles of Computer Systems", "systems", U, 3, 5,
 "multiprocessing|threads and concurrency|networking|MapReduce-style data processing", "CS 107"},
{"CS 161", "Design and Analysis of Algorithms", "theory", U, 3, 5,
 "divide and conquer|graph algorithms|dynamic programming|greedy algorithms|randomized algorithms", "CS 103|CS 109"},
{"CS 221", "Artificial Intelligence: Principles and Techniques", "ai", U, 3, 4,
 "search and planning|Markov decision processes|reinforcement learning|constraint satisfaction|Bayesian networks", "CS 106B|CS 109"},
{"CS 229|STATS 229", "Machine Learning", "ml", G, 3, 4,
 "linear regression|logistic regression|neural networks|support vector machines|unsupervised learning|learning theory", "CS 109"},
{"CS 224N|LINGUIST 284", "Natural Language Processing with Deep Learning", "nlp", G, 3, 4,
 "word embeddings|language modeling|transformers|machine translation|question answering", "CS 109|CS 221"},
{"CS 147", "Introduction to Human-Computer Interaction Design", "hci", U, 3, 5,
 "user-centered design|need-finding|prototyping|usability testing", "CS 106A"},
{"CS 145", "Data Management and Data Systems", "databases", U, 3, 4,
 "relational algebra|SQL|query optimization|transactions and concurrency control|indexing", "CS 107"},
{"CS 155", "Computer and Network Security", "security", U, 3, 3,
 "software vulnerabilities|web security|network security|cryptography|malware analysis", "CS 110"},
{"CS 144", "Introduction to Computer Networking", "networking", U, 3, 4,
 "TCP/IP|routing|congestion control|the Internet architecture|DNS", "CS 110"},
{"CS 143", "Compilers", "pl", U, 3, 4,
 "parsing and lexing|type checking|code generation|optimization passes", "CS 107|CS 103"},
{"CS 148", "Introduction to Computer Graphics and Imaging", "graphics", U, 3, 4,
 "rasterization|ray tracing|texture mapping|color and light", "CS 107"},
{"CS 154", "Introduction to the Theory of Computation", "theory", U, 3, 4,
 "automata and regular languages|Turing machines|NP-completeness|complexity classes", "CS 103"},
{"CS 108", "Object-Oriented Systems Design", "intro", U, 3, 4,
 "object-oriented programming|design patterns|testing|graphical user interfaces", "CS 107"},
{"CS 124|LINGUIST 180", "From Languages to Information", "nlp", U, 3, 4,
 "text processing|information retrieval|recommender systems|sentiment analysis|chatbots", "CS 106B|CS 109"},
{"CS 230", "Deep Learning", "ml", G, 3, 4,
 "neural networks|convolutional networks|recurrent networks|optimization for deep learning|transformers", "CS 229"},
{"CS 231N", "Deep Learning for Computer Vision", "vision", G, 3, 4,
 "image classification|convolutional networks|object detection|segmentation|generative models", "CS 229"},
{"CS 131", "Computer Vision: Foundations and Applications", "vision", U, 3, 4,
 "image filtering|edge detection|feature matching|image classification|camera models", "CS 106B|CS 109"},
{"CS 231A", "Computer Vision: From 3D Reconstruction to Recognition", "vision", G, 3, 4,
 "camera models|multi-view geometry|3D reconstruction|object recognition", "CS 131"},
{"CS 224U|LINGUIST 188", "Natural Language Understanding", "nlp", G, 3, 4,
 "semantic parsing|natural language inference|retrieval-augmented generation|grounded language", "CS 224N"},
{"CS 224S|LINGUIST 285", "Spoken Language Processing", "nlp", G, 2, 4,
 "speech recognition|text-to-speech|dialogue systems|prosody", "CS 224N"},
{"CS 224V", "Conversational Virtual Assistants with Deep Learning", "nlp", G, 3, 4,
 "dialogue systems|large language models|retrieval-augmented generation|agents and tool use|semantic parsing", "CS 224N"},
{"CS 224W", "Machine Learning with Graphs", "ml", G, 3, 4,
 "graph neural networks|node embeddings|knowledge graphs|link prediction|community detection", "CS 229"},
{"CS 234", "Reinforcement Learning", "ai", G, 3, 3,
 "Markov decision processes|policy gradients|exploration|offline reinforcement learning|imitation learning", "CS 229|CS 221"},
{"CS 228", "Probabilistic Graphical Models", "ai", G, 3, 4,
 "Bayesian networks|Markov random fields|variational inference|sampling methods|structure learning", "CS 109|CS 221"},
{"CS 236", "Deep Generative Models", "ml", G, 3, 3,
 "variational autoencoders|normalizing flows|diffusion models|energy-based models|generative adversarial networks", "CS 229"},
{"CS 238|AA 228", "Decision Making under Uncertainty", "ai", G, 3, 4,
 "Markov decision processes|partially observable planning|multi-agent systems|planning under uncertainty", "CS 109"},
{"CS 223A|ME 320", "Introduction to Robotics", "robotics", U, 3, 3,
 "kinematics|dynamics|control|trajectory generation", "CS 106B"},
{"CS 237A|AA 274A", "Principles of Robot Autonomy I", "robotics", G, 3, 5,
 "motion planning|localization and mapping|robot perception|state estimation", "CS 106B|CS 109"},
{"CS 248A", "Computer Graphics: Rendering, Geometry, and Image Manipulation", "graphics", G, 3, 4,
 "rasterization|geometry processing|physically based rendering|image processing", "CS 107"},
{"CS 348B", "Image Synthesis Techniques", "graphics", G, 3, 4,
 "ray tracing|physically based rendering|Monte Carlo integration|light transport", "CS 248A"},
{"CS 448B", "Data Visualization", "graphics", G, 3, 4,
 "visual encoding|interaction techniques|exploratory data analysis|visualization design", "CS 147"},
{"CS 247A", "Design for Artificial Intelligence", "hci", G, 3, 4,
 "AI-assisted interfaces|prototyping|design studios", "CS 147"},
{"CS 347", "Human-Computer Interaction: Foundations and Frontiers", "hci", G, 3, 4,
 "research methods|social computing|interaction techniques|crowdsourcing", "CS 147"},
{"CS 245", "Principles of Data-Intensive Systems", "databases", G, 3, 4,
 "storage systems|query optimization|stream processing|distributed databases", "CS 145"},
{"CS 246", "Mining Massive Data Sets", "databases", G, 3, 4,
 "MapReduce-style data processing|locality-sensitive hashing|recommender systems|link analysis|stream processing", "CS 161|CS 109"},
{"CS 346", "Database System Implementation", "databases", G, 3, 5,
 "buffer management|indexing|query execution|recovery and logging", "CS 145"},
{"CS 255", "Introduction to Cryptography", "security", G, 3, 3,
 "block ciphers|public-key encryption|digital signatures|zero-knowledge proofs", "CS 103|CS 109"},
{"CS 251", "Cryptocurrencies and Blockchain Technologies", "security", G, 3, 3,
 "blockchains|consensus protocols|smart contracts|applied cryptography", "CS 110"},
{"CS 244", "Advanced Topics in Networking", "networking", G, 3, 4,
 "software-defined networking|datacenter networks|congestion control|network measurement", "CS 144"},
{"CS 242", "Programming Languages", "pl", G, 3, 3,
 "type systems|lambda calculus|functional programming|Rust and ownership", "CS 107|CS 103"},
{"CS 243", "Program Analysis and Optimizations", "pl", G, 3, 4,
 "data-flow analysis|pointer analysis|optimization passes|parallelization", "CS 143"},
{"CS 343D", "Domain-Specific Programming Models and Compilers", "pl", S, 3, 4,
 "domain-specific languages|code generation|scheduling languages|hardware targets", "CS 143"},
{"CS 149", "Parallel Computing", "architecture", U, 3, 4,
 "multicore coherence|GPUs|SIMD execution|parallel programming models", "CS 107"},
{"CS 140E", "Operating Systems Design and Implementation", "systems", G, 3, 4,
 "kernel design|device drivers|bare-metal programming|virtual memory", "CS 111"},
{"CS 244B", "Distributed Systems", "systems", G, 3, 3,
 "distributed consensus|fault tolerance|replication|remote procedure calls", "CS 110|CS 111"},
{"CS 217", "Hardware Accelerators for Machine Learning", "architecture", G, 3, 4,
 "hardware accelerators|domain-specific hardware|FPGA design|performance modeling", "CS 149|CS 229"},
{"CS 166", "Data Structures", "theory", U, 3, 4,
 "balanced trees|amortized analysis|hashing|string data structures", "CS 161"},
{"CS 168", "The Modern Algorithmic Toolbox", "theory", U, 3, 4,
 "hashing|dimensionality reduction|spectral graph theory|sampling and estimation", "CS 161|CS 109"},
{"CS 261", "Optimization and Algorithmic Paradigms", "theory", G, 3, 4,
 "linear programming|approximation algorithms|online algorithms|network flows", "CS 161"},
{"CS 265", "Randomized Algorithms and Probabilistic Analysis", "theory", G, 3, 3,
 "randomized algorithms|concentration bounds|Markov chains|hashing", "CS 161|CS 109"},
{"CS 181", "Computers, Ethics, and Public Policy", "society", U, 4, 4,
 "ethics of AI|privacy and surveillance|technology policy|algorithmic fairness", NULL},
{"CS 182|PUBLPOL 182", "Ethics, Public Policy, and Technological Change", "society", U, 4, 5,
 "ethics of AI|technology and democracy|the future of work|content moderation", NULL},
{"CS 273A|BIOMEDIN 273A", "A Computational Tour of the Human Genome", "bio", G, 3, 3,
 "genomics|gene regulation|sequence alignment|population genetics", "CS 106B"},
{"CS 279|BIOE 279", "Computational Biology: Structure and Organization of Biomolecules and Cells", "bio", G, 3, 3,
 "protein structure|molecular dynamics|systems biology|drug discovery", "CS 106A|CS 109"},
{"CS 329S", "Machine Learning Systems Design", "ml", S, 3, 4,
 "data pipelines|model deployment|monitoring|MLOps", "CS 229"},
{"CS 336", "Language Modeling from Scratch", "nlp", S, 5, 5,
 "tokenization|transformers|scaling laws|GPU programming|alignment", "CS 224N|CS 110"},
{"CS 194", "Software Project", "intro", U, 3, 4,
 "team software development|agile processes|testing|code review", "CS 108|CS 110"},
{"CS 191", "Senior Project", "intro", U, 1, 6,
 "independent research|technical writing|project planning", "CS 107"},
{"CS 198", "Teaching Computer Science", "intro", S, 3, 4,
 "teaching methods|section leading|giving feedback|debugging with students", "CS 106B"},
{"CS 521", "Seminar on AI Safety", "ai", S, 1, 1,
 "AI safety|alignment|evaluation of language models|governance", NULL},
{"CS 547", "Human-Computer Interaction Seminar", "hci", S, 1, 1,
 "research methods|social computing|AI-assisted interfaces", NULL},
{"CS 520", "Knowledge Graphs", "databases", S, 1, 2,
 "knowledge graphs|data integration|semantic web|graph queries", NULL},
};

const size_t gen_classic_count = sizeof gen_classic_table / sizeof gen_classic_table[0];

const char gen_first_names[] =
    "Aisha|Alex|Ana|Andrew|Anita|Ben|Carlos|Chen|Chris|Claire|Daniel|David|Diana|Elena|Emily|Emma|"
    "Farah|Fei|Gabriel|Hannah|Hiro|Ian|Irene|James|Jane|Jia|John|Jonathan|Julia|Karen|Kenji|Laura|"
    "Leila|Lucas|Maria|Mark|Mehran|Michael|Mina|Monica|Nadia|Nick|Olivia|Omar|Pablo|Percy|Priya|Rachel|"
    "Raj|Rosa|Samuel|Sara|Sebastian|Sofia|Stefan|Tamara|Tom|Vikram|Wei|Yuki|Zoe";
const char gen_last_names[] =
    "Abadi|Agarwal|Anderson|Bernstein|Brooks|Castillo|Chandra|Chen|Cohen|Diaz|Dubois|Engler|Feldman|"
    "Fischer|Garcia|Goldberg|Gupta|Hansen|Hernandez|Ito|Jackson|Kapoor|Kim|Kowalski|Kumar|Lee|Levy|Li|"
    "Lin|Lopez|Martin|Mehta|Miller|Moreno|Nakamura|Nguyen|Novak|Okafor|Olsen|Park|Patel|Petrov|Quinn|"
    "Ramirez|Rao|Rossi|Russo|Sato|Schmidt|Shah|Silva|Singh|Sokolov|Suzuki|Tanaka|Torres|Wang|Weber|"
    "Williams|Wong|Wu|Yang|Zhang|Zhou";
