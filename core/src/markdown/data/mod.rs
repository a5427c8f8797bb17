//! Generated data tables (`tools/gen_markdown_tables.py`); each file names its source package,
//! version and licence.

pub(crate) mod emoji;
pub(crate) mod lexers;
pub(crate) mod sql_words;
pub(crate) mod tlds;
