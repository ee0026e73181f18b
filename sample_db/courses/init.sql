-- Tables the course agent's APIs write.
CREATE TABLE IF NOT EXISTS enrollments(
    txn_id TEXT PRIMARY KEY,
    student_name TEXT NOT NULL,
    student_id TEXT NOT NULL,
    student_email TEXT NOT NULL,
    course_0 TEXT NOT NULL,     -- JSON: {"course_name", "grading", "units", ...}
    course_1 TEXT NOT NULL,
    course_2 TEXT,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS drops(
    txn_id TEXT PRIMARY KEY,
    enrollment_id TEXT NOT NULL REFERENCES enrollments(txn_id),
    course_name TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now')),
    UNIQUE(enrollment_id, course_name)
);
