//! JSON values between serde and Python: the core speaks `serde_json::Value`, Python gets plain dicts,
//! lists, strings, ints, bools and None.

use crate::errors::to_pyerr;
use cardnet_core::GameError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// Deepest nesting accepted from Python. Cardnet data is a few levels deep; the limit keeps a hostile,
/// deeply nested object from exhausting the native stack.
const MAX_DEPTH: usize = 64;

/// Why a Python object is not a cardnet JSON value.
pub enum ConvertError {
    /// An object of a type JSON cannot hold (or a float: cardnet JSON is integers only).
    Type(String),
    /// A value of the right type that cannot be represented (an integer beyond 64 bits, too deep).
    Value(String),
}

impl ConvertError {
    /// The message, whatever the kind.
    pub fn message(&self) -> &str {
        match self {
            ConvertError::Type(m) | ConvertError::Value(m) => m,
        }
    }
}

/// Builds the Python object for a JSON value.
pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => number_to_py(py, n)?,
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => map_to_py(py, map)?.into_any(),
    })
}

/// The Python objects for canonical JSON text the core wrote, through the standard library's C decoder.
/// The same objects `to_py` builds (the text's keys are sorted, as `Value`'s are), without parsing the
/// text into a `Value` first: the core writes lists and views as text, so this is their one conversion.
pub fn text_to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let loads = LOADS.get_or_try_init(py, || py.import("json")?.getattr("loads").map(Bound::unbind))?;
    loads.bind(py).call1((text,))
}

/// Builds a Python dict for a JSON object (keys in sorted order, as the core keeps them).
pub fn map_to_py<'py>(py: Python<'py>, map: &Map<String, Value>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, item) in map {
        dict.set_item(key, to_py(py, item)?)?;
    }
    Ok(dict)
}

fn number_to_py<'py>(py: Python<'py>, n: &Number) -> PyResult<Bound<'py, PyAny>> {
    if let Some(i) = n.as_i64() {
        Ok(i.into_pyobject(py)?.into_any())
    } else if let Some(u) = n.as_u64() {
        Ok(u.into_pyobject(py)?.into_any())
    } else {
        Ok(PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any())
    }
}

/// Reads a Python object as a cardnet JSON value: dicts with string keys, lists and tuples, strings,
/// integers within 64 bits, booleans and None.
pub fn from_py(obj: &Bound<'_, PyAny>) -> Result<Value, ConvertError> {
    from_py_at(obj, 0)
}

fn from_py_at(obj: &Bound<'_, PyAny>, depth: usize) -> Result<Value, ConvertError> {
    if depth > MAX_DEPTH {
        return Err(ConvertError::Value(format!("nested deeper than {MAX_DEPTH} levels")));
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    // bool before int: Python's bool is an int subclass.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(ConvertError::Value(format!("integer {obj} does not fit in 64 bits")));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_str().map_err(|e| ConvertError::Value(e.to_string()))?.to_owned()));
    }
    if let Ok(dict) = obj.cast::<PyDict>() {
        let mut map = Map::new();
        for (key, item) in dict.iter() {
            let key = key
                .cast::<PyString>()
                .map_err(|_| ConvertError::Type(format!("object keys must be strings, not {}", type_name(&key))))?
                .to_str()
                .map_err(|e| ConvertError::Value(e.to_string()))?
                .to_owned();
            map.insert(key, from_py_at(&item, depth + 1)?);
        }
        return Ok(Value::Object(map));
    }
    if let Ok(list) = obj.cast::<PyList>() {
        return list.iter().map(|item| from_py_at(&item, depth + 1)).collect::<Result<_, _>>().map(Value::Array);
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return tuple.iter().map(|item| from_py_at(&item, depth + 1)).collect::<Result<_, _>>().map(Value::Array);
    }
    if obj.is_instance_of::<PyFloat>() {
        return Err(ConvertError::Type(format!("float {obj} is not allowed (cardnet JSON holds integers only)")));
    }
    Err(ConvertError::Type(format!("{} is not a JSON value", type_name(obj))))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "object".into())
}

/// Options given by Python: anything that is not a JSON-like object is `BadOptions`.
pub fn options_value(py: Python<'_>, options: Option<&Bound<'_, PyAny>>) -> PyResult<Value> {
    match options {
        None => Ok(Value::Null),
        Some(obj) => {
            from_py(obj).map_err(|e| to_pyerr(py, &GameError::BadOptions(format!("options: {}", e.message()))))
        }
    }
}
