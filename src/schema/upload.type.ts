import { GraphQLError, GraphQLScalarType } from 'graphql';
import { Upload } from '../http/multipart';
import type { FileUpload } from '../services/storage/upload';

/**
 * The `Upload` scalar of the GraphQL multipart request spec. Its value is a promise of the file,
 * resolved when the file's part begins: the one multipart parser (src/http/multipart.ts) builds it on
 * /graphql and for POST /kyc/documents, so both faces share one path.
 */
export const UploadScalar = new GraphQLScalarType<Promise<FileUpload>, never>({
  name: 'Upload',
  description: 'A file sent as a part of a multipart request (GraphQL multipart request spec).',
  parseValue(value) {
    if (!(value instanceof Upload)) throw new GraphQLError('Upload value invalid: send the file as a multipart request (GraphQL multipart request spec).');
    return value.promise;
  },
  parseLiteral() {
    throw new GraphQLError('Upload literal unsupported: send the file as a variable in a multipart request.');
  },
  serialize() {
    throw new GraphQLError('Upload serialization unsupported.');
  },
});
