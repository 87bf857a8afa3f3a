import { Module } from '@nestjs/common';
import { CheckStyleguideHandler } from './infrastructure/styleguide.handlers';
import { StyleguidesModule } from './styleguides.module';

/** Style guide checks as the worker runs them. */
@Module({ imports: [StyleguidesModule], providers: [CheckStyleguideHandler] })
export class StyleguidesWorkerModule {}
