/*
 * course_phrases.c — what students say about courses, as templates.
 *
 * As for restaurants: per latent attribute and polarity, 6-8 paraphrases
 * with little shared vocabulary ("I spent 25 hours a week on it" / "this
 * class ate my entire quarter"), and filler sentences that stay off every
 * attribute (no workload, grading, lecture quality, projects, math,
 * prerequisites or organization) so that unknown values never leak.
 *
 * Slots (course_voice.c): {topic} {topic2} topics of this course, {code} its
 * code, {prof} its lecturer, {hours} weekly hours, {assign} what the
 * assignments are called, {label} the area in words, {lang}, {artifact}.
 */
#include "course.h"

const char *const gen_cattr_names[CA_COUNT] = {
    "heavy_workload", "easy_grading", "great_lecturer", "project_based", "math_heavy",
    "good_for_beginners", "well_organized",
};

const signed char gen_cattr_good[CA_COUNT] = {-1, 1, 1, 1, -1, 1, 1};

static const char *const HEAVY_POS[] = {
    "the workload is [brutal|intense|no joke]: I spent [20|25|30] hours a week on it.",
    "[be ready to|expect to] [live in the lab|pull a few all-nighters] - the {assign} are [huge|massive|long].",
    "this class ate my entire quarter[; don't pair it with another heavy course|].",
    "every assignment took me [two|three] full days.",
    "[way|much] more work than the units suggest.",
    "[plan your quarter around it|take it in a light quarter], because the {assign} are time sinks.",
    "[I was constantly behind|it felt like a part-time job]; the pace never lets up.",
    "{hours} of work a week, minimum.",
    NULL};
static const char *const HEAVY_NEG[] = {
    "the workload is [very manageable|light|reasonable] - maybe [five|six] hours a week.",
    "[easy to balance|pairs well] with [heavier classes|a full course load].",
    "the {assign} are short and [never took me more than an evening|rarely take more than a couple of hours].",
    "[a light|a chill] class in terms of time commitment.",
    "I barely spent [four|five] hours a week outside lecture.",
    "never felt overwhelmed; the time commitment is [modest|small].",
    "one of the lighter classes I've taken here.",
    NULL};

static const char *const EASY_POS[] = {
    "grading is [generous|lenient|very fair] - the median was an A[-|].",
    "the curve is generous[, so don't panic about the midterm|].",
    "[pretty much|almost] everyone who does the work gets an A.",
    "the TAs give lots of partial credit.",
    "an easy A if you [show up|keep up with the {assign}].",
    "late days and a [lenient regrade policy|generous drop policy] make it hard to do badly.",
    "the exams are [straightforward|fair] and grading is [kind|forgiving].",
    NULL};
static const char *const EASY_NEG[] = {
    "grading is [harsh|brutal|strict]; the median on the midterm was [52|58|61] percent.",
    "[they take off points for everything|tiny mistakes cost a lot of points].",
    "don't expect an A - the curve is [stingy|tough].",
    "the TAs grade [very strictly|harshly] and regrade requests rarely go anywhere.",
    "exams are [much harder|way harder] than the practice materials.",
    "I worked hard and still got a B[-|]; the grading is [unforgiving|tough].",
    "[the autograder's|the hidden] test cases [tank your score|cost me half the points] for small bugs.",
    NULL};

static const char *const LECTURER_POS[] = {
    "{prof} is [an amazing|a fantastic|an incredible] lecturer[ - I never missed a class|].",
    "[lectures are|every lecture is] [engaging|clear|a joy], and {prof} makes hard ideas click.",
    "{prof} [clearly loves|is passionate about] the material and it's contagious.",
    "best lecturer I've had at this school.",
    "{prof}'s explanations of {topic} [finally made it click|were crystal clear].",
    "I actually looked forward to lecture; {prof} is [hilarious|that good].",
    "{prof} [answers every question patiently|stays after class to help anyone who asks].",
    NULL};
static const char *const LECTURER_NEG[] = {
    "the lectures are [dry|boring|hard to follow]; I stopped going after week [three|four].",
    "{prof} reads off the slides in a monotone.",
    "lecture was [confusing|hard to follow]; I learned more from the textbook.",
    "{prof} [rushes through|skips over] the hard parts and [doesn't take questions|brushes off questions].",
    "[honestly|frankly], watching the recordings at 2x was the only way to sit through lecture.",
    "{prof} seems [uninterested|checked out] in teaching.",
    "the lecturer [mumbles|talks way too fast] and the explanations of {topic} [made no sense|were unclear].",
    NULL};

static const char *const PROJECT_POS[] = {
    "[most of|the bulk of] the grade is a [quarter-long|big] final project[, which was the best part|].",
    "you build {artifact} from scratch in teams of [three|four].",
    "the projects are open-ended and you get to pick your own [topic|idea].",
    "I [loved|really enjoyed] the hands-on projects - way more useful than exams.",
    "my final project on {topic} [became part of my portfolio|turned into a research paper].",
    "[no exams, just projects|projects instead of exams], [which suits me|which I loved].",
    "project milestones every two weeks keep you building all quarter.",
    "[we demoed our project at the end|the project showcase at the end] was a highlight.",
    NULL};
static const char *const PROJECT_NEG[] = {
    "no projects, just problem sets and exams.",
    "it's all [theory and exams|exams], so don't expect to build anything.",
    "I wish there were a project; everything is problem sets and a final.",
    "the grade is basically [two exams|the midterm and the final].",
    "zero hands-on work - all [written homework|paper problem sets].",
    "if you want to build things, this isn't the class: it's [exam-driven|pure problem sets].",
    "weekly problem sets and exams, no final project.",
    NULL};

static const char *const MATH_POS[] = {
    "[very|extremely] math heavy - [brush up on|review] your linear algebra and probability first.",
    "lots of proofs[; make sure you're comfortable writing them|].",
    "[the math is|the derivations are] [intense|relentless], especially around {topic}.",
    "if you're rusty on [calculus|probability|linear algebra], you'll struggle.",
    "more of a math class than a programming class.",
    "[expect|be ready for] [pages of derivations|a lot of proofs] on every problem set.",
    "the theory is [rigorous|heavy] - [eigenvalues|gradients|expectations] everywhere.",
    NULL};
static const char *const MATH_NEG[] = {
    "[very little|hardly any] math - you don't need more than [high school algebra|basic algebra].",
    "no proofs, [just intuition and code|mostly practical stuff].",
    "[light on math|the math is minimal], which I appreciated.",
    "you don't need [linear algebra|calculus] for this one.",
    "the course is [practical rather than theoretical|about building, not deriving].",
    "[math-phobes|people who hate math] will be fine here.",
    NULL};

static const char *const BEGINNER_POS[] = {
    "[perfect|great] for beginners - I had never [coded|programmed] before and did fine.",
    "no prior experience needed; they start from [the very basics|zero].",
    "[a great|an ideal] first class in {label}.",
    "I came in with [no background|zero background] and left [confident|feeling capable].",
    "office hours are [super welcoming to|great for] newcomers.",
    "[take this|start here] if you're new to {label}.",
    "it assumes nothing and builds up slowly.",
    NULL};
static const char *const BEGINNER_NEG[] = {
    "not for beginners - it assumes a lot of background.",
    "[take the prerequisites seriously|make sure you have the background]; it moves fast if you're new.",
    "[without prior experience|if you're new to {label}], you'll be lost by week two.",
    "[definitely|clearly] aimed at [grad students|people with research experience].",
    "[as a beginner|coming in with little background] I [struggled|was in over my head].",
    "the course expects you to already know {topic}.",
    "this should not be your first {label} class.",
    NULL};

static const char *const ORGANIZED_POS[] = {
    "[very|super|incredibly] well organized: a clear syllabus, detailed handouts, and quick answers on the forum.",
    "everything is released on time and the course site is easy to navigate.",
    "the [lecture notes|slides] and the {assign} fit together [perfectly|nicely].",
    "the logistics [run like clockwork|are flawless].",
    "[clear rubrics|clear specs] for every assignment, so you always know what's expected.",
    "the TAs and {prof} [are on the same page|coordinate well], so there's never any confusion.",
    "a [well-structured|thoughtfully structured] course: each week builds on the last.",
    NULL};
static const char *const ORGANIZED_NEG[] = {
    "[disorganized|chaotic]: deadlines moved [constantly|at the last minute].",
    "[the assignment specs|the instructions] were [vague|confusing] and [kept changing|full of errors].",
    "[grades|feedback] came back [weeks late|after the final].",
    "the course site was a mess and announcements were scattered everywhere.",
    "the TAs [contradicted each other|gave conflicting answers] on the forum.",
    "it felt like the course was being [planned|made up] week to week.",
    "[lectures and assignments|the slides and the {assign}] didn't line up at all.",
    NULL};

const char *const *const gen_cphr_attr[2 * CA_COUNT] = {
    HEAVY_POS, HEAVY_NEG, EASY_POS, EASY_NEG, LECTURER_POS, LECTURER_NEG, PROJECT_POS, PROJECT_NEG,
    MATH_POS, MATH_NEG, BEGINNER_POS, BEGINNER_NEG, ORGANIZED_POS, ORGANIZED_NEG,
};

const char *const gen_cphr_body[3][12] = {
    {"I learned a ton about {topic}.",
     "the material on {topic} was [fascinating|super interesting|eye-opening].",
     "the unit on {topic} was my favorite part.",
     "[really|genuinely] useful for [internships|research|interviews].",
     "I'd recommend it to anyone interested in {label}.",
     "[one of the best|easily one of my favorite] classes I've taken.",
     "{topic} and {topic2} finally make sense to me.",
     "the section on {topic} changed how I think about {label}.",
     NULL},
    {"the material is interesting, but some weeks drag.",
     "[a solid|a decent] class overall[, nothing life-changing|].",
     "the part on {topic} was great; {topic2}, less so.",
     "some of the {assign} were fun, others felt pointless.",
     "useful, though not very exciting.",
     "I liked the {topic} material more than the {topic2} part.",
     NULL},
    {"I didn't get much out of it.",
     "the material on {topic} felt [outdated|shallow].",
     "[not worth it|I regret taking it].",
     "the {assign} felt pointless.",
     "I expected more depth on {topic}.",
     NULL},
};

const char *const gen_cphr_opener[] = {
    "took this [in|during] my [sophomore|junior|senior|first] year.",
    "took {code} [last autumn|last winter|last spring|as an elective].",
    "took it for the {label} [requirement|breadth requirement|depth requirement].",
    "[I'm a|as a] [CS major|coterm student|PhD student|non-major], [here's my take|some thoughts].",
    NULL};

const char *const gen_cphr_closer[5][5] = {
    {"avoid.", "would not take again.", NULL},
    {"I'd skip it unless it's required.", "take something else if you can.", NULL},
    {"it's fine; take it if you need it.", "mixed feelings overall.", NULL},
    {"worth taking.", "recommended.", NULL},
    {"highly recommend!", "10/10 would take again.", "take it!", NULL},
};
