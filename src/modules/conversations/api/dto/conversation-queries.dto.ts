import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '@app/common';

export class ListConversationsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'Only conversations of this source (`integration:api:<user id>` for API ingestion)', maxLength: 300 })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  source?: string;
}

export class ListIssuesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'Only issues of this cluster', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  cluster?: string;

  @ApiPropertyOptional({ description: 'Only issues of this conversation', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  conversation?: string;
}

export class ListClustersQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({
    enum: ['updatedAt', 'issues', 'conversations', 'tasksTotal', 'tasksBacklog', 'tasksStarted'],
    default: 'updatedAt',
  })
  @IsOptional()
  @IsIn(['updatedAt', 'issues', 'conversations', 'tasksTotal', 'tasksBacklog', 'tasksStarted'])
  orderBy?: string;

  @ApiPropertyOptional({ enum: ['pending', 'analysing'], description: 'Clusters are always analysed when listed: these list nothing' })
  @IsOptional()
  @IsIn(['pending', 'analysing'])
  status?: string;
}
