//! Offline stand-in for schemars 0.8 (not packaged by Debian). The rules crates only
//! derive JsonSchema and implement it by hand for four types; nothing here builds a
//! real schema. The derive emits nothing.
pub use schemars_derive::JsonSchema;

pub mod gen {
    #[derive(Default)]
    pub struct SchemaGenerator;
}

pub mod schema {
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum InstanceType {
        Null,
        Boolean,
        Object,
        Array,
        Number,
        String,
        Integer,
    }
    pub enum SingleOrVec<T> {
        Single(Box<T>),
        Vec(Vec<T>),
    }
    impl<T> From<T> for SingleOrVec<T> {
        fn from(t: T) -> Self {
            SingleOrVec::Single(Box::new(t))
        }
    }
    #[derive(Default)]
    pub struct SchemaObject {
        pub instance_type: Option<SingleOrVec<InstanceType>>,
    }
    pub enum Schema {
        Bool(bool),
        Object(SchemaObject),
    }
    impl From<SchemaObject> for Schema {
        fn from(o: SchemaObject) -> Self {
            Schema::Object(o)
        }
    }
}

pub trait JsonSchema {
    fn schema_name() -> String;
    fn json_schema(gen: &mut gen::SchemaGenerator) -> schema::Schema;
}
