import { Module } from '@nestjs/common';
import { ImportsModule } from './imports.module';
import { ImportContentHandler } from './infrastructure/imports.handlers';

/** Content imports as the worker runs them. */
@Module({ imports: [ImportsModule], providers: [ImportContentHandler] })
export class ImportsWorkerModule {}
