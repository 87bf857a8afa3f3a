import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

/** Documents a read that answers with an `ETag` and honours `If-None-Match` (the served document adds its 304). */
export const ConditionalRead = () =>
  applyDecorators(
    ApiHeader({ name: 'If-None-Match', required: false, description: 'An `ETag` of an earlier answer: 304 with no body while the resource (and your view of it) is unchanged' }),
  );

/** Documents a write that honours `If-Match` (the 412 itself is declared with the other error answers). */
export const ConditionalWrite = () =>
  applyDecorators(
    ApiHeader({ name: 'If-Match', required: false, description: "The `ETag` of the version you read: when the resource changed since, 412 and nothing is written" }),
  );
